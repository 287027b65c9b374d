evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-syntax: ${dir}/resilience.yaml:7:1: not valid YAML: expected ',' or ']', but got <stream end> (while parsing a flow sequence) -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
