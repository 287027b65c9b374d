evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check-budget (default) on project it-missing-cassette: ${dir}/resilience.yaml:11:11: scenarios[0].ops[0]: no cassette for op 'plan': looked for c06d109f908d3f58.json; the nearest recorded request is 12ef5d31bdb89522.json, which differs at op. Run mvn resilience:record to record it -> [Help 1]".toString()
assertErrorLine(want0)
assert !log.contains("\tat ") : "no stack trace"
return true
