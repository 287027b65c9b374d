evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def line = errors.find { it.startsWith("plain [determinism] op 'plan': run 2 differs from run 1 at outcomes[0].value.trace: ") }
assert line != null : errors.join("\n")
assert line.endsWith("(bound identical outcomes, actual 2 paths differ). Make outcomes depend only on the responses and the policy: no wall clock, randomness, or hash order; declare drifting response fields under volatile")
assert errors.contains(("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-determinism-violation: resilience:check: 1 violation (determinism 1); run mvn resilience:report for details -> [Help 1]").toString())
return true
