evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-alias-bomb: ${dir}/resilience.yaml:8:29: e[7]: the aliases expand to more than 100000 values, which looks like an alias bomb; write the values out instead -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
