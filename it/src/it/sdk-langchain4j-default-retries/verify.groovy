evaluate(new File(itSources, 'build-log.groovy'))
// langchain4j's retry layer slept for real on the 429; the harness interrupted it. The milliseconds and the line of
// RetryUtils vary, so the line is checked around them.
def head = "quota-stops-at-review [bounded_wait] op 'review': slept "
def where = " ms in real time in dev.langchain4j.internal.RetryUtils\$RetryPolicy.sleep(RetryUtils.java:"
def tail = " ms of real time). langchain4j's retry layer waits with Thread.sleep, which no clock can replace: build the model with maxRetries(0) and let your loop retry, waiting on run.sleeper()"
def sleep = errors.find { it.startsWith(head) && it.contains(where) && it.contains(") (the harness interrupted it) (bound 0 ms of real time, actual ") && it.endsWith(tail) }
assert sleep != null : "missing the bounded_wait line naming langchain4j's retry sleep; got:\n" + errors.join("\n")
// The interrupted retry ended the run; it is reported once, under bounded_wait, not again as missing outcomes.
assert !errors.any { it.contains('[expectations]') } : errors.join("\n")
def summary = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-sdk-langchain4j-default-retries: resilience:check: 1 violation (bounded_wait 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(summary)
return true
