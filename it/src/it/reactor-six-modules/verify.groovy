evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
assert log.readLines().count { it.startsWith('[INFO] Ran 2 scenarios of resilience.yaml with loop builtin') } == 6
assert !log.contains('not marked as @threadSafe') : "thread-safety warning"
assert !log.contains('[WARNING] *****')
return true
