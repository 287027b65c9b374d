// The example's triage agent, its openai-java loop and the cassettes recorded through the SDK; resilience.yaml here
// runs the loop's variant on a client left at openai-java's defaults.
evaluate(new File(itSources, 'example-files.groovy'))
copyFromExample('src/test/java/com/example/agent/TriageAgent.java')
copyFromExample('src/test/java/com/example/agent/OpenAiTriageLoop.java')
copyFromExample('cassettes-sdk', 'cassettes')
return true
