evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "waits [bounded_wait] op 'plan': waited 30000 ms in total; policy.max_total_wait is 15000 ms (bound 15000 ms, actual 30000 ms). Check the total before each wait and degrade or stop instead of waiting past policy.max_total_wait".toString()
assertErrorLine(want0)
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-bounded-wait-violation: resilience:check: 1 violation (bounded_wait 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want1)
return true
