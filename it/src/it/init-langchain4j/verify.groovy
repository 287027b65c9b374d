def stub = System.properties.remove('it.init.langchain4j.stub')
stub.server.stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
def lines = log.readLines()
// init: what it found, what it wrote, and the steps that follow; the pom already has the adapter and the plugin
['[INFO] Found langchain4j among the dependencies',
 '[INFO] Wrote resilience.yaml',
 '[INFO] Wrote src/test/java/resilience/ResilienceLoop.java',
 '[INFO] Wrote src/test/java/ResilienceScenariosTest.java',
 '[INFO] Next steps:',
 '[INFO]   2. Record once, with the provider\'s key in OPENAI_API_KEY: mvn test-compile resilience:record',
 '[INFO]   3. Then: mvn verify (offline, from the cassettes)'].each { assert lines.contains(it) : it + "\n" + log }
assert !log.contains('Add to the pom') : log
assert new File(basedir, 'src/test/java/resilience/ResilienceLoop.java').text.contains('CHANGE THIS LINE')
// record: one request per op through the loop, with the key as a Bearer token
assert stub.badKeys.get() == 0 : "the key was not sent as a Bearer token"
assert stub.requests.get() == 2 : "expected one request for each of plan and review: " + stub.requests.get()
assert new File(basedir, 'cassettes').listFiles().count { it.name ==~ /[0-9a-f]{16}\.json/ } == 2
// verify passes offline (surefire's engine and the check), then the same verify on the SDK's defaults fails
assert lines.any { it =~ /Ran 6 scenarios of resilience\.yaml with loop resilience\.ResilienceLoop(,|$)/ } : log
assert lines.count { it.contains('Tests run: 30, Failures: 0, Errors: 0, Skipped: 0') && it.contains('-- in dev.resilienceharness.junit.ResilienceScenarios') } == 2 : log
// On langchain4j's default retries its retry layer sleeps in real time on each 503, 429 and timeout; the harness
// interrupts the sleep and reports it under bounded_wait. The milliseconds and the line of RetryUtils vary, so each
// line is checked around them.
def where = " ms in real time in dev.langchain4j.internal.RetryUtils\$RetryPolicy.sleep(RetryUtils.java:"
def tail = " ms of real time). langchain4j's retry layer waits with Thread.sleep, which no clock can replace: build the model with maxRetries(0) and let your loop retry, waiting on run.sleeper()"
["server-error-is-retried-with-backoff [bounded_wait] op 'plan': slept ",
 "quota-without-retry-after-stops [bounded_wait] op 'review': slept ",
 "timeout-is-retried-with-backoff [bounded_wait] op 'plan': slept "].each { head ->
    def sleep = errors.find { it.startsWith(head) && it.contains(where) && it.contains(") (the harness interrupted it) (bound 0 ms of real time, actual ") && it.endsWith(tail) }
    assert sleep != null : "missing the bounded_wait line " + head + "...; got:\n" + errors.join("\n")
}
// An interrupted run is reported once, under bounded_wait, not again under expectations.
assert !errors.any { it.contains('[expectations]') } : errors.join("\n")
assert errors.any { it.startsWith('Failed to execute goal dev.resilienceharness:harness-maven-plugin:') && it.endsWith(':check (default) on project it-init-langchain4j: resilience:check: 3 violations (bounded_wait 3); run mvn resilience:report for details -> [Help 1]') } : errors.join('\n')
assert !log.contains('LoopbackOnlyKey')
return true
