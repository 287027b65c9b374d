evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-empty: ${dir}/resilience.yaml:1:1: the file is empty: it needs at least version, policy.max_total_wait and scenarios -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
