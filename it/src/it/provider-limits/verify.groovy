import groovy.json.JsonSlurper
evaluate(new File(itSources, 'build-log.groovy'))
// window waits out requests_per_minute: 2 and finishes every op; its 750 tokens are over the budget of 500
assertErrorLine("window [budget]: 750 tokens in the scenario, retries and repairs included; budget.max_tokens_per_scenario is 500 (bound 500 tokens, actual 750 tokens). Spend fewer tokens (fewer retries and repairs, shorter requests) or raise the budget")
assert errors.count { it ==~ /^(window|quota) \[.*/ } == 1 : errors.join("\n")
assertErrorLine("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:report (default-cli) on project it-provider-limits: resilience:report: 1 violation (budget 1); see ${new File(basedir, 'target/resilience/report.html').canonicalPath} -> [Help 1]".toString())
def report = new JsonSlurper().parse(new File(basedir, 'target/resilience/report.json'))
def window = report.scenarios.find { it.name == 'window' }
assert window.outcomes*.status == ['ok', 'ok', 'ok', 'ok', 'ok']
assert window.total_wait_ms == 120000.0
assert window.timeline.waits.collect { [it.start_ms, it.ms] } == [[0.0, 60000.0], [60000.0, 60000.0]]
assert window.timeline.calls.findAll { it.limit == 'rate_limit' }*.op == ['test', 'ship']
assert window.tokens.spent == 750 && window.tokens.budget == 500 && window.tokens.cost == '0.000225'
def quota = report.scenarios.find { it.name == 'quota' }
assert quota.outcomes*.status == ['ok', 'ok', 'stopped']
assert quota.outcomes[2].reason == 'quota' && quota.outcomes[2].containsKey('retry_after') && quota.outcomes[2].retry_after == null
assert quota.timeline.calls[2].limit == 'insufficient_quota'
assert quota.violations.isEmpty()
return true
