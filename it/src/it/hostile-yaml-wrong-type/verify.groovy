evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-wrong-type: ${dir}/resilience.yaml:4:17: policy.max_attempts: expected an integer of at least 1, got the text 'three' -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
