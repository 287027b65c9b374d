evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop com.example.agent.PoliteLoop')
return true
