def log = new File(basedir, 'build.log').text
// 3 scenarios x 5 invariants from resilience.yaml, plus the project's own test
assert log.contains('Tests run: 16, Failures: 0, Errors: 0, Skipped: 0') : log
def report = new File(basedir, 'target/surefire-reports').listFiles().find { it.name.startsWith('TEST-') && it.text.contains('transient-then-ok') }
assert report != null : "the scenarios are in surefire's reports"
return true
