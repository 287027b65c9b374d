// The report goal wrote target/resilience; the same pass, run from plain Java in a JVM of its own with only core and
// its libraries on the classpath (no Maven, no plugin), writes the same reports. report.json holds nothing that differs
// from run to run (its times are the scenarios' virtual ones), so the two must be equal to the byte.
evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def goal = new File(basedir, 'target/resilience')
assert log.contains('[INFO] Report: ' + new File(goal, 'report.html').toURI().toString().replace('file:/', 'file:///'))

def elements = coreClasspath.split(File.pathSeparator) as List
assert elements.any { it.contains('harness-core') } : coreClasspath
assert !elements.any { it.contains('maven-plugin-api') || it.contains('harness-maven-plugin') || it.contains('maven-core') } : coreClasspath
def java = new File(System.getProperty('java.home'), 'bin/java').path
def command = [java, '-cp', coreClasspath, new File(basedir, 'PlainReport.java').path, basedir.path, 'target/plain']
def process = command.execute(null, basedir)
def output = new StringBuilder()
process.waitForProcessOutput(output, output)
assert process.exitValue() == 0 : output
def plainLog = output.toString().readLines()
def plain = new File(basedir, 'target/plain')
// It logs what the goal logged: the same pass, the same lines (the report's own folder aside).
['[INFO] Checked 6 cassettes in ', '[INFO] Ran 3 scenarios of resilience.yaml with loop builtin',
        '[INFO] Scanned 6 cassettes for secrets: 0 findings'].each { want ->
    assert log.readLines().any { it.startsWith(want) } : want
    assert plainLog.any { it.startsWith(want) } : want + "\n--- got:\n" + output
}
assert plainLog.contains('[INFO] Report: ' + new File(plain, 'report.html').toPath().toUri())

def goalJson = new File(goal, 'report.json')
def plainJson = new File(plain, 'report.json')
def slurper = new groovy.json.JsonSlurper()
def report = slurper.parse(goalJson)
assert report.summary.scenarios == 3
assert report.cassettes.checked == 6
assert slurper.parse(plainJson) == report
assert plainJson.text == goalJson.text
assert new File(plain, 'secrets.sarif').text == new File(goal, 'secrets.sarif').text
assert new File(plain, 'junit/TEST-resilience.xml').text == new File(goal, 'junit/TEST-resilience.xml').text
return true
