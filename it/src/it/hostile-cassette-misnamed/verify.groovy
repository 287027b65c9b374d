evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/cassettes/0123456789abcdef.json [cassettes] op 'plan': the file name is not its request's fingerprint (bound c06d109f908d3f58.json, actual 0123456789abcdef.json). Rename it to c06d109f908d3f58.json, or re-record it with mvn resilience:record".toString(),
    "${dir}/resilience.yaml:6:11: scenarios[0].ops[0] [cassettes] op 'plan': no cassette for op 'plan': looked for c06d109f908d3f58.json; the nearest recorded request is 0123456789abcdef.json, which is the same request under another name. Run mvn resilience:record to record it".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-cassette-misnamed: resilience:check: 2 violations (cassettes 2); run mvn resilience:report for details -> [Help 1]".toString()
]
def log = assertRefused(want)
assert log.contains("[WARNING] Scenarios were not run because of the cassette violations below; fix them first") : "the skip warning"
return true
