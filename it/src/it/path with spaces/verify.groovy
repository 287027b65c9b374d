evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
assert log.contains('[INFO] Ran 1 scenario of resilience.yaml with loop builtin')
return true
