// Three builds in one log, each starting with Maven's "Scanning for projects...".
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\.$/).drop(1)
assert builds.size() == 3 : "three builds:\n" + log
// What the check logged: the lines of its execution, and the goal's failure. The loop's line comes on its standard
// output in Maven's JVM and as an [INFO] line from the forked JVM, where the greeting is the build's -Dgreeting too.
def checkLines = { String build ->
    def lines = build.readLines()
    int from = lines.findIndexOf { it.startsWith('[INFO] --- ') && it.contains(':check (') }
    int to = lines.findIndexOf { it.startsWith('[INFO] BUILD ') }
    assert from >= 0 && to > from : "no check execution in:\n" + build
    def own = lines.subList(from + 1, to).findAll { !it.startsWith('[INFO] ---') && !it.isBlank() }
            .collect { it == '[INFO] GreetingLoop says: hello, caf\u00e9' ? 'GreetingLoop says: hello, caf\u00e9' : it }
    own + lines.findAll { it.startsWith('[ERROR] Failed to execute goal') }
}
def forked = checkLines(builds[0])
def inMaven = checkLines(builds[1])
assert forked.contains('GreetingLoop says: hello, caf\u00e9') : forked.join('\n')
assert forked.any { it.startsWith('[ERROR] quota-keeps-partial-work [expectations]') } : forked.join('\n')
assert forked.any { it.contains('Ran 3 scenarios of resilience.yaml with loop com.example.agent.GreetingLoop') }
assert forked.sort(false) == inMaven.sort(false) : "forked:\n" + forked.join('\n') + "\n--- in Maven's JVM:\n" + inMaven.join('\n')
// The third build's JVM does not start.
def third = builds[2].readLines()
assert third.any { it.contains('Unrecognized VM option \'NoSuchOptionAnywhere\'') } : builds[2]
assert third.any { it.startsWith('[ERROR] Failed to execute goal') && it.contains('resilience:check: its JVM (') && it.contains('-XX:+NoSuchOptionAnywhere') && it.contains('ended with exit code 1 before it gave a verdict; its output is above. Mend resilience.fork.jvmArgs, or check in Maven\'s JVM with -Dresilience.fork=false') } : builds[2]
return true
