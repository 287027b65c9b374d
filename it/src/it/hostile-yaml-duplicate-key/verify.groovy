evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-duplicate-key: ${dir}/resilience.yaml:4:3: policy.max_total_wait: duplicate key 'max_total_wait': first at line 3, column 3, again at line 4, column 3; keep only one -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
