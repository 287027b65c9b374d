def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "stop [partial_work] op 'plan': was called before the stop but is missing from the outcome list (bound 1 outcome, actual none). Keep every finished op's outcome, in order, and return them when the run stops".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
def want1 = "stop [partial_work] op 'patch': was called before the stop but is missing from the outcome list (bound 1 outcome, actual none). Keep every finished op's outcome, in order, and return them when the run stops".toString()
assert errors.contains(want1) : "missing [ERROR] line:\n" + want1 + "\n--- got:\n" + errors.join("\n")
def want2 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-partial-work-violation: resilience:check: 2 violations (partial_work 2); run mvn resilience:report for details -> [Help 1]".toString()
assert errors.contains(want2) : "missing [ERROR] line:\n" + want2 + "\n--- got:\n" + errors.join("\n")
assert !log.contains("op 'review'")
return true
