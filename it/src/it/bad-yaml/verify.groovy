evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-bad-yaml: ${dir}/resilience.yaml:3:3: policy.max_attempt: unknown key 'max_attempt'; did you mean 'max_attempts'? The keys allowed here are: max_attempts, base_delay, max_delay, max_total_wait, quota, schema, slow_first_token, concurrency, jitter, max_rounds -> [Help 1]".toString()
assertErrorLine(want0)
assert !log.contains("\tat ") : "no stack trace"
return true
