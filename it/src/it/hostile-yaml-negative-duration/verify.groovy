evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-negative-duration: ${dir}/resilience.yaml:3:19: policy.max_total_wait: a duration must not be negative, got '-15s' -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
