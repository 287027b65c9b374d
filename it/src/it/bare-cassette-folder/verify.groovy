evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def lines = log.readLines()
assert lines.count('[INFO] resilience.yaml declares no scenarios with ops: the cassettes are checked on their own, without looking for orphans') == 2 : log
assert lines.count('[INFO] Checked 6 cassettes in ' + new File(basedir, 'cassettes').canonicalPath) == 2 : log
assert log.contains('[INFO] Scanned 6 cassettes') || log.contains('6 cassettes') : log
assert lines.contains('[WARNING] resilience.yaml declares no scenarios with ops: resilience:check-budget has nothing to rehearse. Add scenarios (see the README) to check a loop') : log
assert lines.contains('[WARNING] resilience.yaml declares no scenarios with ops: resilience:check has nothing to rehearse. Add scenarios (see the README) to check a loop') : log
assert !log.contains('orphan cassette') : "no orphan warnings without scenarios"
assert log.contains('BUILD SUCCESS')
return true
