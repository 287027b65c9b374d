evaluate(new File(itSources, 'build-log.groovy'))
assert log.contains('[INFO] Ran 3 scenarios of resilience.yaml with loop com.example.agent.PoliteLoop, comparing 5 runs of each for determinism') : log
assertErrorLine("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-loop-override: -Dresilience.loop=bultin: expected builtin or the binary class name of your loop, such as com.acme.agent.MyLoop, got the text 'bultin'; did you mean 'builtin'? -> [Help 1]".toString())
// the first run, with the team loop, found no violation: the only failure is the bad value's
assert errors.count { it.startsWith('Failed to execute goal') } == 1 : errors.join("\n")
assert errors.count { it =~ / \[(budget|determinism|partial_work|bounded_wait|expectations|cassettes|secrets|side_effects)\]/ } == 0 : errors.join("\n")
// help -Ddetail documents the parameter
assert log.contains('loop') && log.contains('User property: resilience.loop') : log
return true
