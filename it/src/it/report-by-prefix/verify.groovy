evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def out = new File(basedir, 'target/resilience')
assert log.contains('[INFO] Report: ' + new File(out, 'report.html').toURI().toString().replace('file:/', 'file:///'))
def report = new groovy.json.JsonSlurper().parse(new File(out, 'report.json'))
assert report.summary.scenarios == 3
assert report.summary.violations == 0
assert report.summary.by_invariant.keySet() as List == ['budget', 'determinism', 'partial_work', 'bounded_wait', 'expectations', 'cassettes', 'secrets', 'side_effects']
assert report.scenarios*.name == ['transient-then-ok', 'quota-keeps-partial-work', 'restart-resumes']
assert report.scenarios[0].keySet().take(7) as List == ['name', 'calls', 'call_budget', 'total_wait_ms', 'wait_bound_ms', 'outcomes', 'violations']
assert report.cassettes.checked == 6
assert report.secrets.files == 6
def junit = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File(out, 'junit/TEST-resilience.xml')).documentElement
assert junit.getAttribute('failures') == '0'
assert new File(out, 'secrets.sarif').text.contains('2.1.0')
def html = new File(out, 'report.html').text
assert html.contains('transient-then-ok') && !html.contains('https://')
return true
