evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def lines = log.readLines()
def at = lines.findIndexOf { it == '[INFO]   - name: explore-two-budget-1' }
assert at > 0 : log
assert lines[at + 1] == '[INFO]     ops: [plan, patch]'
assert lines[at + 2] == '[INFO]     faults: [quota]'
def report = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/resilience/explore.json'))
def first = report.scenarios[0].counterexamples.find { it.invariant == 'budget' }
assert first.faults == ['quota']
return true
