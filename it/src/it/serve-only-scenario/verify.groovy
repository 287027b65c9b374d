evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
assert log.contains("[INFO] Scenario 'quota-storm' has no ops: it is a fault plan for resilience:serve, and resilience:check leaves it out")
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop builtin')
assert log.contains('BUILD SUCCESS')
return true
