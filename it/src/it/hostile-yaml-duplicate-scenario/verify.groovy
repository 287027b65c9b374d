evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-duplicate-scenario: ${dir}/resilience.yaml:7:11: scenarios[1].name: duplicate scenario name 'plan-then-patch': first at line 5, again at line 7; scenario names must be unique -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
