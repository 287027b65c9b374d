evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
assert log.contains('[INFO] Skipping resilience:check (resilience.check.skip is true)')
assert log.contains('[INFO] Checked 6 cassettes in ')
return true
