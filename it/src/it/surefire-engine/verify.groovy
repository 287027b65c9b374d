def log = new File(basedir, 'build.log').text
// 3 scenarios x 5 invariants from resilience.yaml, once, plus one test in each of the project's two classes
assert log.contains('Tests run: 17, Failures: 0, Errors: 0, Skipped: 0') : log
// surefire reports the scenarios as one test set, named after the engine's marker class, and only once
def scenarioSets = log.readLines().findAll { it.contains('-- in dev.resilienceharness.junit.ResilienceScenarios') }
assert scenarioSets.size() == 1 : log
assert scenarioSets[0].contains('Tests run: 15, Failures: 0, Errors: 0, Skipped: 0') : log
assert log.readLines().count { it.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0') && it.contains('-- in it.smoke.SmokeTest') } == 1 : log
assert log.readLines().count { it.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0') && it.contains('-- in it.other.SecondTest') } == 1 : log
def reports = new File(basedir, 'target/surefire-reports').listFiles().findAll { it.name.startsWith('TEST-') }
def report = reports.find { it.text.contains('transient-then-ok') }
assert report != null : "the scenarios are in surefire's reports"
assert report.name == 'TEST-dev.resilienceharness.junit.ResilienceScenarios.xml' : report.name
assert reports.count { it.text.contains('transient-then-ok') } == 1 : reports*.name
// one test case per scenario and invariant, each under a name of its own
def names = (report.text =~ /<testcase name="([^"]+)"/).collect { it[1] }
def expected = ['transient-then-ok', 'quota-keeps-partial-work', 'restart-resumes'].collectMany { scenario ->
    ['budget', 'determinism', 'partial_work', 'bounded_wait', 'expectations'].collect { "${scenario} [${it}]".toString() }
}
assert names.sort() == expected.sort() : report.text
return true
