evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-config-named-typo: ${dir}/resilence.yaml: no such file, and it is the config this build names (resilience.config or <config>): the goal would check nothing. Fix the name, or create the file -> [Help 1]".toString()
]
def log = assertRefused(want)
assert !log.contains("Skipping resilience:check") : "the module was skipped"
return true
