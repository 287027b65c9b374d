evaluate(new File(itSources, 'build-log.groovy'))
assert errors.first() == ("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:drift"
        + " (default-cli) on project it-drift-bad-max-requests: -Dresilience.drift.maxRequests=-3: negative; write a"
        + " whole number of requests of at least 1, such as -Dresilience.drift.maxRequests=50 -> [Help 1]").toString() :
        errors.join('\n')
assert !log.contains("\tat ") : "no stack trace"
assert !new File(basedir, 'target/resilience/drift.json').exists() : "nothing was checked"
assert !new File(basedir, 'cassettes').exists() : "no cassette was written"
return true
