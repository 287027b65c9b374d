evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "storm [budget] op 'plan': more calls than the policy allows (1 + 2 transient + 0 quota + 0 repair + 0 restart) (bound 3 calls, actual 5 calls). Retry only what the policy allows: transient failures up to max_attempts, one retry after an honourable Retry-After, up to repair_attempts repairs".toString()
assertErrorLine(want0)
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-budget-violation: resilience:check: 1 violation (budget 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want1)
return true
