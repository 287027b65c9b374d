evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def lines = log.readLines()
// Three ops, three calls unlimited: the highest rate the storm still breaks under is 2 a minute.
assert lines.contains("[WARNING] storm [budget] op 'test': retried 0 ms after a rate-limit 429 with Retry-After \"60\", which states 60000 ms (bound at least 60000 ms, actual 0 ms). Wait the delay a rate-limit 429 states (QuotaExhausted.delay(run.now())) with run.sleeper() before calling again; a retry at once only meets the full window again") : log
assert lines.contains('[INFO] The loop breaks with requests_per_minute: 2 (1 values tried). Paste under scenarios: in resilience.yaml to keep this case:') : log
def at = lines.findIndexOf { it == '[INFO]   - name: explore-storm-requests-per-minute-2' }
assert at > 0 : log
assert lines[at + 1] == '[INFO]     ops: [plan, patch, test]'
assert lines[at + 3] == '[INFO]     provider_limits: {requests_per_minute: 2}'
// The smallest quota it breaks under lets one answer of 150 tokens through.
assert lines.contains('[INFO] The loop breaks with token_quota: 150 (1 values tried). Paste under scenarios: in resilience.yaml to keep this case:') : log
assert lines.contains('[INFO]     provider_limits: {token_quota: 150}') : log
assert lines.contains('[INFO] resilience:explore: explored 0 plans, found 2 counterexamples (seed 1); see ' + new File(basedir, 'target/resilience/explore.json').canonicalPath) : log

// explore.json lists both values found, each with the invariant it breaks, its reason and the block to paste.
def explored = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/resilience/explore.json'))
assert explored.summary.limits == 2 : explored.summary
assert explored.limits*.limit == ['requests_per_minute', 'token_quota'] : explored.limits
def rpm = explored.limits[0]
assert rpm.scenario == 'storm' && rpm.name == 'explore-storm-requests-per-minute-2' && rpm.value == 2 && rpm.tried == 1
assert rpm.invariant == 'budget'
assert rpm.reason == 'retried 0 ms after a rate-limit 429 with Retry-After "60", which states 60000 ms' : rpm.reason
assert rpm.violations.contains("storm [budget] op 'test': retried 0 ms after a rate-limit 429 with Retry-After \"60\", which states 60000 ms (bound at least 60000 ms, actual 0 ms). Wait the delay a rate-limit 429 states (QuotaExhausted.delay(run.now())) with run.sleeper() before calling again; a retry at once only meets the full window again") : rpm.violations
assert rpm.yaml.contains('    provider_limits: {requests_per_minute: 2}\n') : rpm.yaml
def quota = explored.limits[1]
assert quota.scenario == 'storm' && quota.name == 'explore-storm-token-quota-150' && quota.value == 150
assert quota.invariant == 'budget' && quota.reason : quota
assert quota.yaml.contains('    provider_limits: {token_quota: 150}\n') : quota.yaml
return true
