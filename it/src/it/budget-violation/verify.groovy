evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "storm [budget] op 'plan': more calls than the policy allows (1 + 2 transient + 0 quota + 0 repair + 0 restart) (bound 3 calls, actual 5 calls). Retry only what the policy allows: transient failures up to max_attempts, one retry after an honourable Retry-After, up to repair_attempts repairs".toString()
assertErrorLine(want0)
// the storm retries at once, not after the declared backoff
assertErrorLine("storm [bounded_wait] op 'plan': retried 0 ms after its 1st transient failure; the policy's backoff is 10000 ms (jitter none: at least 10000 ms) (bound at least 10000 ms, actual 0 ms). Wait policy.backoff(n) with run.sleeper() before retrying after the n-th transient failure, or declare the jitter your loop uses (policy.jitter: full | equal)")
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-budget-violation: resilience:check: 2 violations (budget 1, bounded_wait 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want1)
return true
