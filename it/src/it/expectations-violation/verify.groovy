evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "hopeful [expectations] op 'patch': expect.status is [ok, ok] but the outcomes show [ok, stopped] (bound [ok, ok], actual [ok, stopped]). Fix the loop, or the scenario's expect list if the policy changed on purpose".toString()
assertErrorLine(want0)
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-expectations-violation: resilience:check: 1 violation (expectations 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want1)
return true
