def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "storm [budget] op 'plan': more calls than the policy allows (1 + 2 transient + 0 quota + 0 repair + 0 restart) (bound 3 calls, actual 5 calls). Retry only what the policy allows: transient failures up to max_attempts, one retry after an honourable Retry-After, up to repair_attempts repairs".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-budget-violation: resilience:check: 1 violation (budget 1); run mvn resilience:report for details -> [Help 1]".toString()
assert errors.contains(want1) : "missing [ERROR] line:\n" + want1 + "\n--- got:\n" + errors.join("\n")
return true
