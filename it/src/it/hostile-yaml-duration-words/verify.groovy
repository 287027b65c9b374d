evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-duration-words: ${dir}/resilience.yaml:3:19: policy.max_total_wait: expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got '15 seconds' -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
