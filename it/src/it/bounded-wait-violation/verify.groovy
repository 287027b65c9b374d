def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "waits [bounded_wait] op 'plan': waited 30000 ms in total; policy.max_total_wait is 15000 ms (bound 15000 ms, actual 30000 ms). Check the total before each wait and degrade or stop instead of waiting past policy.max_total_wait".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-bounded-wait-violation: resilience:check: 1 violation (bounded_wait 1); run mvn resilience:report for details -> [Help 1]".toString()
assert errors.contains(want1) : "missing [ERROR] line:\n" + want1 + "\n--- got:\n" + errors.join("\n")
return true
