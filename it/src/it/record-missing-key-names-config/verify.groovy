evaluate(new File(itSources, 'build-log.groovy'))
def want = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:record (default-cli) on project it-record-missing-key-names-config: set RESILIENCE_IT_UNSET_PROVIDER_KEY to the provider's API key (mcp.yaml's provider.api_key_env names it); it is read from the environment, sent as a Bearer token and never written anywhere -> [Help 1]".toString()
assertErrorLine(want)
assert !log.contains("resilience.yaml's provider.api_key_env") : 'the file in use is mcp.yaml'
assert !log.contains("\tat ") : "no stack trace"
return true
