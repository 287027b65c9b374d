def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
def dir = basedir.canonicalPath
def want0 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-bad-yaml: ${dir}/resilience.yaml:3:3: policy.max_attempt: unknown key 'max_attempt'; did you mean 'max_attempts'? The keys allowed here are: max_attempts, base_delay, max_delay, max_total_wait, quota, schema, slow_first_token, concurrency -> [Help 1]".toString()
assert errors.contains(want0) : "missing [ERROR] line:\n" + want0 + "\n--- got:\n" + errors.join("\n")
assert !log.contains("\tat ") : "no stack trace"
return true
