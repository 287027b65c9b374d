evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/cassettes/c06d109f908d3f58.json [cassettes] op 'plan': is a symbolic link leading out of the cassette folder ${dir}/cassettes; it was not followed. Replace the link with the cassette file itself".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-cassette-symlink-out: resilience:check: 1 violation (cassettes 1); run mvn resilience:report for details -> [Help 1]".toString()
]
def log = assertRefused(want)
assert log.contains("[WARNING] Scenarios were not run because of the cassette violations below; fix them first") : "the skip warning"
return true
