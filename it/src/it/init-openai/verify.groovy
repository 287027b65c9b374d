def stub = System.properties.remove('it.init.openai.stub')
stub.server.stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
def lines = log.readLines()
// init: what it found, what it wrote, and the steps that follow; the pom already has the adapter and the plugin
['[INFO] Found openai-java among the dependencies',
 '[INFO] Wrote resilience.yaml',
 '[INFO] Wrote src/test/java/resilience/ResilienceLoop.java',
 '[INFO] Wrote src/test/java/ResilienceScenariosTest.java',
 '[INFO] Next steps:',
 '[INFO]   2. Record once, with the provider\'s key in OPENAI_API_KEY: mvn test-compile resilience:record',
 '[INFO]   3. Then: mvn verify (offline, from the cassettes)'].each { assert lines.contains(it) : it + "\n" + log }
assert !log.contains('Add to the pom') : log
assert new File(basedir, 'src/test/java/resilience/ResilienceLoop.java').text.contains('CHANGE THIS LINE')
// record: one request per op through the loop, with the key as a Bearer token
assert stub.badKeys.get() == 0 : "the key was not sent as a Bearer token"
assert stub.requests.get() == 2 : "expected one request for each of plan and review: " + stub.requests.get()
assert new File(basedir, 'cassettes').listFiles().count { it.name ==~ /[0-9a-f]{16}\.json/ } == 2
// verify passes offline (surefire's engine and the check), then the same verify on the SDK's defaults fails
assert lines.any { it =~ /Ran 6 scenarios of resilience\.yaml with loop resilience\.ResilienceLoop(,|$)/ } : log
assert lines.count { it.contains('Tests run: 30, Failures: 0, Errors: 0, Skipped: 0') && it.contains('-- in dev.resilienceharness.junit.ResilienceScenarios') } == 2 : log
def budget = errors.find { it.startsWith("quota-without-retry-after-stops [budget] op 'review': ") }
assert budget != null && budget.contains('openai-java 4.105.0 made') : errors.join('\n')
assert errors.any { it.startsWith('Failed to execute goal dev.resilienceharness:harness-maven-plugin:') && it.contains(':check (default) on project it-init-openai: resilience:check: ') } : errors.join('\n')
assert !log.contains('LoopbackOnlyKey')
return true
