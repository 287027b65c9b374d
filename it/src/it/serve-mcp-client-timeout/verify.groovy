evaluate(new File(itSources, 'build-log.groovy'))
def want = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:serve (default-cli) on project it-serve-mcp-client-timeout: resilience.mcpClientTimeout must be a positive duration, the request timeout of the MCP clients served (20s for the MCP Java SDK and Spring AI, 60s for langchain4j-mcp), was '0s' -> [Help 1]".toString()
assertErrorLine(want)
assert !log.contains('Serving replay on') : 'serve did not start'
assert !log.contains("\tat ") : "no stack trace"
return true
