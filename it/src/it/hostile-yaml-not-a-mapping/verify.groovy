evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-not-a-mapping: ${dir}/resilience.yaml:1:1: the top level must be a mapping with keys such as version, policy and scenarios, got a list -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
