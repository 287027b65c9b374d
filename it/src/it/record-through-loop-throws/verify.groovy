def stub = System.properties.remove('it.record.loop.stub')
stub.server.stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
// -Dresilience.loop was honoured: the loop's own bodies went out, never a {"op": ...} placeholder
assert stub.bodies.size() == 2 : stub.bodies
assert stub.bodies.every { !it.contains('"op"') } : stub.bodies
assert log.contains('[INFO] Recording through loop com.acme.CarefulLoop from ') : log
// one line per recorded request
assert log.readLines().count { it ==~ /\[INFO\] refund-flow: plan round 1: recorded cassettes\/[0-9a-f]{16}\.json/ } == 1 : log
assert log.readLines().count { it ==~ /\[INFO\] refund-flow: refund round 1: recorded cassettes\/[0-9a-f]{16}\.json/ } == 1 : log
// the loop's exception fails the build, naming the scenario, the op and the loop's own frame
def thrown = errors.find { it.startsWith("refund-flow: cannot record op 'refund': the loop threw java.lang.ClassCastException: ") }
assert thrown != null : errors.join("\n")
assert thrown.endsWith(' at com.acme.CarefulLoop.run(CarefulLoop.java:19); the 2 cassettes recorded before it are kept') : thrown
assert log.contains('BUILD FAILURE')
assert !log.contains('BUILD SUCCESS')
// what was recorded before the throw is kept
def cassettes = new File(basedir, 'cassettes').listFiles().findAll { it.name.endsWith('.json') }
assert cassettes.size() == 2 : cassettes
return true
