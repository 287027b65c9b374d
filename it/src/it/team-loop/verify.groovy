def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
assert errors.isEmpty() : errors.join("\n")
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop com.example.agent.PoliteLoop')
return true
