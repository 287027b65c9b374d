// Three builds in one log, each starting with Maven's "Scanning for projects...".
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\.$/).drop(1)
assert builds.size() == 3 : "three builds:\n" + log
def errors = { String build -> build.readLines().findAll { it.startsWith('[ERROR] ') && !it.startsWith('[ERROR] -> ') && !it.startsWith('[ERROR] Re-run') && !it.startsWith('[ERROR] For more') && !it.startsWith('[ERROR] To see') && !it.startsWith('[ERROR] [Help') && it.trim() != '[ERROR]' } }
[builds[0], builds[1]].each { build ->
    def lines = errors(build)
    // One violation, the stalled run's, then the goal's failure: the scenario that answers passes, and ran after it.
    assert lines.size() == 2 : lines.join('\n')
    def stall = lines[0]
    assert stall.startsWith("[ERROR] callback-never-comes [bounded_wait] op 'review': the loop made no call and no wait for ") : stall
    assert stall.contains(' ms of real time (the bound is 5s): it was waiting in java.util.concurrent.CompletableFuture.join, called from com.example.agent.CallbackLoop.run(CallbackLoop.java:37). It did not end when interrupted; its thread was left behind (bound 5000 ms of real time without a call or a wait, actual ') : stall
    assert stall.endsWith('Bound the wait: Future.get(timeout, unit) instead of get() or join(), with a timeout the loop handles (an SDK\'s callback may never come when a stream breaks); if the loop really works that long between two calls, raise -Dresilience.stallTimeout (now 5s)') : stall
    assert lines[1].startsWith('[ERROR] Failed to execute goal') && lines[1].contains('1 violation') : lines[1]
    assert build.contains('Ran 2 scenarios of resilience.yaml with loop com.example.agent.CallbackLoop') : build
}
def third = errors(builds[2])
assert third.any { it.startsWith('[ERROR] Failed to execute goal') && it.endsWith(': resilience.stallTimeout: expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got \'soon\'. Give how long a run of the loop may make no call and no wait in real time, such as 30s or 5m, or 0 to turn the stall guard off -> [Help 1]') } : third.join('\n')
assert !builds[2].contains('Ran 2 scenarios') : builds[2]
return true
