evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-unknown-fault: ${dir}/resilience.yaml:7:14: scenarios[0].faults[0]: unknown fault 'timout'; did you mean 'timeout'? The fault kinds are: none, timeout, server_error, quota, bad_tool_call, slow_first_token, crash, latency, stream_cut, stream_stall, malformed_event, stream_error, truncated_tool_call -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
