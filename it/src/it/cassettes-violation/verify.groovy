evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "${dir}/cassettes/0000000000000000.json [cassettes]: the file name is not its request's fingerprint (bound c5f22652c3d6c3c8.json, actual 0000000000000000.json). Rename it to c5f22652c3d6c3c8.json, or re-record it with mvn resilience:record".toString()
assertErrorLine(want0)
def want1 = "${dir}/cassettes/c06d109f908d3f58.json [cassettes] op 'plan': volatile field response.id is still in the cassette. Remove it (mvn resilience:record strips volatile paths before writing)".toString()
assertErrorLine(want1)
def want2 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default) on project it-cassettes-violation: resilience:verify-cassettes: 2 violations (cassettes 2) -> [Help 1]".toString()
assertErrorLine(want2)
return true
