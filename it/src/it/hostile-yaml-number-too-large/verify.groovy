evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-number-too-large: ${dir}/resilience.yaml:4:17: policy.max_attempts: numbers too large: 99999999999999999999 does not fit in an integer (at most 2147483647) -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
