evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/cassettes/c06d109f908d3f58.json [cassettes] op 'plan': is empty; a cassette is {\"request\": {...}, \"response\": {...}}. Fix the file, or delete it and run mvn resilience:record".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-cassette-empty: resilience:check: 1 violation (cassettes 1); run mvn resilience:report for details -> [Help 1]".toString()
]
def log = assertRefused(want)
assert log.contains("[WARNING] Scenarios were not run because of the cassette violations below; fix them first") : "the skip warning"
return true
