def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "hopeful [expectations] op 'patch': expect.status is [ok, ok] but the outcomes show [ok, stopped] (bound [ok, ok], actual [ok, stopped]). Fix the loop, or the scenario's expect list if the policy changed on purpose".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-expectations-violation: resilience:check: 1 violation (expectations 1); run mvn resilience:report for details -> [Help 1]".toString()
assert errors.contains(want1) : "missing [ERROR] line:\n" + want1 + "\n--- got:\n" + errors.join("\n")
return true
