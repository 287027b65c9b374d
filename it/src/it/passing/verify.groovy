def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
assert errors.isEmpty() : errors.join("\n")
assert log.contains('[INFO] Checked 6 cassettes in ')
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop builtin')
assert !log.contains('[WARNING] *****')
return true
