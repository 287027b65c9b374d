evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/resilience.yaml:6:11: scenarios[0].ops[0] [cassettes] op 'plan': no cassette for op 'plan': looked for c06d109f908d3f58.json; the nearest recorded request is c5f22652c3d6c3c8.json, which differs at op. Run mvn resilience:record to record it".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-cassette-missing: resilience:check: 1 violation (cassettes 1); run mvn resilience:report for details -> [Help 1]".toString()
]
def log = assertRefused(want)
assert log.contains("[WARNING] Scenarios were not run because of the cassette violations below; fix them first") : "the skip warning"
return true
