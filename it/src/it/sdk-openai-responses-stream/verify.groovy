// A team's loop streaming with openai-java's responses().createStreaming, checked in the forked JVM on a cassette
// recorded whole through the SDK: the error event and the clean stream pass, and the loop's salvage bug after a cut
// mid-text is the build's one violation.
evaluate(new File(itSources, 'build-log.groovy'))
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop it.agent.SummaryLoop, comparing 2 runs of each for determinism')
def partial = "cut-mid-text-then-ok [partial_work] op 'plan': its outcome repeats text that had already arrived before the stream was cut after 5 events: \"The failing test\" appears 2 times in it (bound at most 1 time, actual 2 times). Drop the partial text of a broken stream before retrying (or keep it and emit only what the retry adds beyond it), so that no text is emitted twice".toString()
assertErrorLine(partial)
def summary = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-sdk-openai-responses-stream: resilience:check: 1 violation (partial_work 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(summary)
assert errors.count { it.contains('[') && it.contains('] op ') } == 1 : "only the salvage bug: " + errors.join("\n")
return true
