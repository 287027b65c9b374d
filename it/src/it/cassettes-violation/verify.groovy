def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "${dir}/cassettes/0000000000000000.json [cassettes]: the file name is not its request's fingerprint (bound c5f22652c3d6c3c8.json, actual 0000000000000000.json). Rename it to c5f22652c3d6c3c8.json, or re-record it with mvn resilience:record".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
def want1 = "${dir}/cassettes/c06d109f908d3f58.json [cassettes] op 'plan': volatile field response.id is still in the cassette. Remove it (mvn resilience:record strips volatile paths before writing)".toString()
assert errors.contains(want1) : "missing [ERROR] line:\n" + want1 + "\n--- got:\n" + errors.join("\n")
def want2 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default) on project it-cassettes-violation: resilience:verify-cassettes: 2 violations (cassettes 2) -> [Help 1]".toString()
assert errors.contains(want2) : "missing [ERROR] line:\n" + want2 + "\n--- got:\n" + errors.join("\n")
return true
