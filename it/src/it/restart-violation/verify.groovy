def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "restart [partial_work] op 'plan': finished before the process restart but was called again after it (1 call) (bound 0 calls after the restart, actual 1 call). Journal each finished op (LoopRun.journal().record) and skip journaled ops when the loop starts".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-restart-violation: resilience:check: 1 violation (partial_work 1); run mvn resilience:report for details -> [Help 1]".toString()
assert errors.contains(want1) : "missing [ERROR] line:\n" + want1 + "\n--- got:\n" + errors.join("\n")
return true
