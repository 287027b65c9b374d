evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "restart [partial_work] op 'plan': finished before the process restart but was called again after it (1 call) (bound 0 calls after the restart, actual 1 call). Journal each finished op (LoopRun.journal().record) and skip journaled ops when the loop starts".toString()
assertErrorLine(want0)
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default) on project it-restart-violation: resilience:check: 1 violation (partial_work 1); run mvn resilience:report for details -> [Help 1]".toString()
assertErrorLine(want1)
return true
