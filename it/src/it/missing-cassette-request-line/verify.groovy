evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def miss = "${dir}/resilience.yaml:4:3: requests.plan: no cassette for op 'plan': looked for d7fe18ca5de50b9e.json; the nearest recorded request is dd37e1aabd92732b.json, which differs at messages[0].content. Run mvn resilience:record to record it".toString()
def violation = "${dir}/resilience.yaml:4:3: requests.plan [cassettes] op 'plan': no cassette for op 'plan': looked for d7fe18ca5de50b9e.json; the nearest recorded request is dd37e1aabd92732b.json, which differs at messages[0].content. Run mvn resilience:record to record it".toString()
// verify-cassettes and check report it as a cassettes violation, once each
assert errors.count { it == violation } == 2 : errors.join("\n")
// check-budget, check-determinism and explore stop at setup with the same sentence
['check-budget', 'check-determinism', 'explore'].each { goal ->
    assertErrorLine("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:${goal} (default-cli) on project it-missing-cassette-request-line: ${miss} -> [Help 1]".toString())
}
assert !log.contains("\tat ") : "no stack trace"
return true
