evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
assert log.contains('[INFO] Checked 6 cassettes in ')
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop builtin')
assert !log.contains('[WARNING] *****')
return true
