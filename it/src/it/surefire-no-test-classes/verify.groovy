def log = new File(basedir, 'build.log').text
assert !log.contains('No tests to run') : log
// 3 scenarios x 5 invariants from resilience.yaml, and nothing else
assert log.contains('Tests run: 15, Failures: 0, Errors: 0, Skipped: 0') : log
def scenarioSets = log.readLines().findAll { it.contains('-- in dev.resilienceharness.junit.ResilienceScenarios') }
assert scenarioSets.size() == 1 : log
assert scenarioSets[0].contains('Tests run: 15, Failures: 0, Errors: 0, Skipped: 0') : log
def report = new File(basedir, 'target/surefire-reports/TEST-dev.resilienceharness.junit.ResilienceScenarios.xml')
assert report.isFile() : 'the scenarios are in surefire\'s reports'
assert report.text.contains('transient-then-ok [budget]') : report.text
// the loop API's reference is built beside harness-core's jar (invoker installs only the main jar here)
def javadoc = new File(itSources, "../../../harness-core/target/harness-core-${projectVersion}-javadoc.jar").canonicalFile
assert javadoc.isFile() : javadoc
def entries = new java.util.zip.ZipFile(javadoc).withCloseable { z -> z.entries().collect { it.name } }
assert entries.contains('dev/resilienceharness/loop/AgentLoop.html') : entries.take(20)
return true
