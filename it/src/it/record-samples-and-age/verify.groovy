def stub = System.properties.remove('it.samples.stub')
stub.server.stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
assert stub.requests.get() == 3 : "the one op without a cassette is sent three times: " + stub.requests.get()

def slurper = new groovy.json.JsonSlurper()
def cassettes = new File(basedir, 'cassettes').listFiles().findAll { it.name.endsWith('.json') }
assert cassettes.size() == 2
def plan = cassettes.find { it.text.contains('planned') }
def recorded = slurper.parse(plan)
assert recorded.timing.samples.size() == 3 : plan.text
assert recorded.timing.total_ms == recorded.timing.samples[0].total_ms
assert recorded.recorded_at ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/
assert log.contains('(3 timing samples)')

def page = new File(basedir, 'target/resilience/report.html').text
assert page.contains('<h3>Recorded latency</h3>') : page
assert page.contains('<td><code>cassettes/' + plan.name + '</code></td><td>plan</td><td>3</td>') : page

def old = cassettes.find { it != plan }
def stale = ~('cassettes/' + old.name + /: recorded at 2020-01-01T00:00:00Z, \d+ days ago, older than drift.max_age \(30 days\); check it with mvn resilience:drift or re-record it with mvn resilience:record -Dresilience.mode=record/)
assert log.readLines().any { it.startsWith('[WARNING] ') && it.substring(10) ==~ stale } : log
assert errors.any { it ==~ stale } : errors.join('\n')
assert errors.any { it.contains('resilience:verify-cassettes: 1 cassette is older than drift.max_age (-Dresilience.failOnStale=true); see the lines above') } :
        errors.join('\n')

// check, the goal bound to verify, reports the stale cassette as verify-cassettes does: a warning, then an error that
// fails the build with failOnStale. Each check runs in full: under max_age a verdict depends on the date.
def lines = log.readLines()
def checkRuns = lines.findIndexValues { it.contains(":check (default-cli) @ it-record-samples-and-age ---") }
assert checkRuns.size() == 2 : log
def runOf = { int i ->
    def from = checkRuns[i] as int
    def rest = lines.subList(from + 1, lines.size())
    def end = rest.findIndexOf { it.contains('---') || it.startsWith('[INFO] BUILD ') }
    rest.subList(0, end < 0 ? rest.size() : end)
}
def days = java.time.Duration.between(java.time.Instant.parse('2020-01-01T00:00:00Z'), java.time.Instant.now()).toDays()
def staleLine = { long d ->
    ('cassettes/' + old.name + ': recorded at 2020-01-01T00:00:00Z, ' + d + ' days ago, older than drift.max_age'
            + ' (30 days); check it with mvn resilience:drift or re-record it with mvn resilience:record'
            + ' -Dresilience.mode=record').toString()
}
// The build ran moments ago: only a run across midnight UTC sees one day fewer.
def wanted = { String prefix, List<String> run -> [days, days - 1].any { d -> run.findAll { it.startsWith(prefix) } == [prefix + staleLine(d)] } }
def warned = runOf(0)
assert wanted('[WARNING] ', warned) : warned.join('\n')
assert !warned.any { it.startsWith('[ERROR] ') } : warned.join('\n')
def failed = runOf(1)
assert wanted('[ERROR] ', failed) : failed.join('\n')
assert !failed.any { it.startsWith('[WARNING] ') && it.contains('older than drift.max_age') } : failed.join('\n')
assertErrorLine(("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check"
        + " (default-cli) on project it-record-samples-and-age: resilience:check: 1 cassette is older than"
        + " drift.max_age (-Dresilience.failOnStale=true); see the lines above -> [Help 1]").toString())
return true
