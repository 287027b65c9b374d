evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "stop [partial_work] op 'plan': was called before the stop but is missing from the outcome list (bound 1 outcome, actual none). Keep every finished op's outcome, in order, and return them when the run stops".toString()
assertErrorLine(want0)
def want1 = "stop [partial_work] op 'patch': was called before the stop but is missing from the outcome list (bound 1 outcome, actual none). Keep every finished op's outcome, in order, and return them when the run stops".toString()
assertErrorLine(want1)
def want2 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-partial-work-violation: resilience:check: 2 violations (partial_work 2); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want2)
assert !log.contains("op 'review'")
return true
