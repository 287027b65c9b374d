def stub = System.properties.remove('it.init.nosdk.stub')
stub.server.stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def lines = log.readLines()
['[INFO] No SDK with a harness adapter among the dependencies (openai-java, anthropic-java, Spring AI, langchain4j): writing the built-in loop\'s variant',
 '[INFO] Wrote resilience.yaml',
 '[INFO] Kept src/test/java/ResilienceScenariosTest.java: it exists, and init never overwrites a file',
 '[INFO] Add to the pom\'s <dependencies>:',
 "[INFO]   <dependency><groupId>dev.resilienceharness</groupId><artifactId>harness-core</artifactId><version>${projectVersion}</version><scope>test</scope></dependency>".toString(),
 '[INFO]   1. In resilience.yaml, put your agent\'s own requests under requests:.',
 '[INFO]   2. Record once, with the provider\'s key in OPENAI_API_KEY: mvn resilience:record'].each {
    assert lines.contains(it) : it + "\n" + log
}
assert !log.contains('Add to the pom\'s <build><plugins>') : log
assert new File(basedir, 'src/test/java/ResilienceScenariosTest.java').text.contains('the team')
assert !new File(basedir, 'src/test/java/resilience').exists()
assert new File(basedir, 'resilience.yaml').text.contains('loop: builtin')
assert stub.badKeys.get() == 0
assert stub.requests.get() == 3 : "one request for each of plan, patch and review: " + stub.requests.get()
assert log.contains('[INFO] Ran 6 scenarios of resilience.yaml with loop builtin') : log
return true
