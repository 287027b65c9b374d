evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "restart [partial_work] op 'plan': finished before the process restart but was called again after it (1 call) (bound 0 calls after the restart, actual 1 call). Journal each finished op (LoopRun.journal().record) and skip journaled ops when the loop starts".toString()
assertErrorLine(want0)
// review's cassette records a 4000 ms first token, and the loop's outcome leaves elapsed_ms out
assertErrorLine("restart [expectations] op 'review': its outcome lacks elapsed_ms, which a slow first token (4000 ms, threshold 2000 ms) requires. Record the fields the policy table requires for each failure: retry_after, reason quota, attempts, reason schema, elapsed_ms and the lowered concurrency (Outcome.stopped, Outcome.degraded, Outcome.slow)")
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-restart-violation: resilience:check: 2 violations (partial_work 1, expectations 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want1)
return true
