import groovy.json.JsonSlurper
evaluate(new File(itSources, 'build-log.groovy'))
def file = new File(basedir, 'cassettes/aed443b7af0e3ebc.json').canonicalPath
def blocked = "Scenario 'restart-resumes' was not run: op 'review' needs ${file}, which has a cassette violation below".toString()
assert log.readLines().contains('[WARNING] ' + blocked) : log
assert !log.contains('Scenarios were not run because of the cassette violations') : "two scenarios ran"
assert log.contains('[INFO] Ran 2 scenarios of resilience.yaml with loop builtin') : log
assert errors.any { it.startsWith(file) && it.contains("[cassettes] op 'review'") } : errors.join("\n")
def report = new JsonSlurper().parse(new File(basedir, 'target/resilience/report.json'))
assert report.scenarios*.name == ['transient-then-ok', 'quota-keeps-partial-work'] : report.scenarios*.name
assert report.cassettes.warnings.contains(blocked) : report.cassettes.warnings
assert report.summary.violations == 1 : report.summary
return true
