import groovy.json.JsonSlurper
def client = System.properties.remove('it.serve.client')
client.thread.join(120000)
assert !client.thread.alive : 'the client did not finish'
evaluate(new File(itSources, 'build-log.groovy'))
assert client.error == null : client.error + '\n' + log
def r = client.responses

// Run 'window', requests_per_minute: 2. Admitted answers carry the window's headers.
assert r.plan.statusCode() == 200 && r.patch.statusCode() == 200
assert r.plan.headers().firstValue('x-ratelimit-limit-requests').get() == '2'
assert r.plan.headers().firstValue('x-ratelimit-remaining-requests').get() == '1'
assert r.patch.headers().firstValue('x-ratelimit-remaining-requests').get() == '0'
// The third call in the minute: a 429 rate_limit_exceeded, Retry-After and the reset scaled to the 6 s minute.
def refused = r.test
assert refused.statusCode() == 429 : refused.body()
assert new JsonSlurper().parseText(refused.body()).error.code == 'rate_limit_exceeded'
def retryAfter = new BigDecimal(refused.headers().firstValue('Retry-After').get())
long retryMs = Long.parseLong(refused.headers().firstValue('retry-after-ms').get())
assert retryAfter > 0 && retryAfter <= 6 : retryAfter
assert retryMs == (retryAfter * 1000).longValue()
assert refused.headers().firstValue('x-ratelimit-limit-requests').get() == '2'
assert refused.headers().firstValue('x-ratelimit-remaining-requests').get() == '0'
def reset = refused.headers().firstValue('x-ratelimit-reset-requests').get()
assert reset ==~ /\d{1,3}ms|[0-5](\.\d+)?s|6s/ : 'x-ratelimit-reset-requests ' + reset
assert refused.headers().firstValue('x-ratelimit-limit-tokens').isEmpty() : 'no tokens_per_minute, no token headers'
// Once the stated delay has passed, the same op is answered.
assert r.testAgain.statusCode() == 200 : r.testAgain.body()
def ended = new JsonSlurper().parseText(r.reset.body())
assert ended.started == 'quota' && ended.ended.name == 'window'

// Run 'quota', token_quota: 300: two answers of 150 tokens, then insufficient_quota without Retry-After.
assert r.quotaPlan.statusCode() == 200 && r.quotaPatch.statusCode() == 200
def spent = r.quotaTest
assert spent.statusCode() == 429 : spent.body()
assert new JsonSlurper().parseText(spent.body()).error.code == 'insufficient_quota'
assert spent.headers().firstValue('Retry-After').isEmpty()
assert spent.headers().firstValue('retry-after-ms').isEmpty()

// Each request on one line, the refusals named by their limit.
assert log =~ /POST \/v1\/chat\/completions op test, fault rate_limit: 429 in \d+ ms/ : log
assert log =~ /POST \/v1\/chat\/completions op test, fault insufficient_quota: 429 in \d+ ms/ : log
def json = new File(basedir, 'target/resilience/report.json')
assert log.contains('Checked 2 runs for call budget and waiting: ' + json.canonicalPath) : log

// The report serve writes when it stops: both runs, their refused calls and tokens.
def report = new JsonSlurper().parse(json)
assert report.scenarios*.name == ['window', 'quota'] : report.scenarios*.name
def window = report.scenarios[0]
assert window.timeline.calls*.op == ['plan', 'patch', 'test', 'test']
assert window.timeline.calls*.limit == [null, null, 'rate_limit', null]
// The client's wait from the 429 to its retry is on the timeline, at least the stated delay; the rate-limit 429
// allowed the op one more call.
assert window.timeline.waits.size() == 1 && window.timeline.waits[0].start_ms == window.timeline.calls[2].at_ms
assert window.timeline.waits[0].ms >= retryMs && window.total_wait_ms == window.timeline.waits[0].ms
assert window.calls == 4 && window.call_budget == 4
assert window.tokens.spent == 450 && window.tokens.refused_calls == 1
assert window.violations.isEmpty() : window.violations
def quota = report.scenarios[1]
assert quota.timeline.calls*.limit == [null, null, 'insufficient_quota']
assert quota.timeline.waits.isEmpty() && quota.calls == 3
assert quota.tokens.spent == 300 && quota.tokens.refused_calls == 1
assert quota.violations.isEmpty() : quota.violations
assert new File(basedir, 'target/resilience/report.html').isFile()
return true
