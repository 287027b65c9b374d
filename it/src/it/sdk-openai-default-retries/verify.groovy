evaluate(new File(itSources, 'build-log.groovy'))
def budget = "quota-without-retry-after-stops [budget] op 'review': more calls than the policy allows (1 + 0 transient + 0 quota + 0 repair + 0 restart); openai-java 4.105.0 made 1 of them as its own retries, under 1 call of your loop (bound 1 call, actual 2 calls). openai-java retried once before your loop saw the answer: build the client with maxRetries(0) and let your loop's policy retry, or allow for the SDK's retries in the policy (max_attempts)".toString()
assertErrorLine(budget)
def expectation = "quota-without-retry-after-stops [expectations] op 'review': expect.status is [ok, stopped] but the outcomes show [ok, ok] (bound [ok, stopped], actual [ok, ok]). Fix the loop, or the scenario's expect list if the policy changed on purpose".toString()
assertErrorLine(expectation)
def summary = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-sdk-openai-default-retries: resilience:check: 2 violations (budget 1, expectations 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(summary)
return true
