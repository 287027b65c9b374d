evaluate(new File(itSources, 'build-log.groovy'))
def runs = log.split(/\[INFO\] Reactor Summary/)
assert runs.size() == 3 : "two builds: as written, then aligned"
def asWritten = runs[0] + runs[1]
def summary1 = runs[1].readLines().findAll { it =~ /team-/ }
// As a team writes it: langchain4j converges; the other SDKs diverge inside their own dependencies.
assert summary1.any { it =~ /team-langchain4j \.+ SUCCESS/ } : summary1.join('\n')
['team-openai-java', 'team-anthropic-java', 'team-spring-ai', 'team-mcp'].each { m ->
    assert summary1.any { it =~ /${m} \.+ FAILURE/ } : summary1.join('\n')
}
// No diverging path runs through an adapter or harness-core: what diverges is the SDKs' own.
def paths = asWritten.readLines().findAll { it =~ /^\[ERROR\] +\+-/ }
assert !paths.isEmpty()
assert !paths.any { it.contains('dev.resilienceharness') } : paths.findAll { it.contains('dev.resilienceharness') }.join('\n')
// Spring AI 2.0.1 brings two Jackson 3 versions of its own.
assert asWritten.contains('Dependency convergence error for tools.jackson.core:jackson-databind:jar:3.1.5') : asWritten
// The MCP Java SDK 2.2.0's JSON module asks for Jackson 3.1.8 and its schema validator for 3.2.1, where the harness
// runs on 3.3.0: without the Jackson 3 BOM the team's tests get whichever Jackson 3 Maven's nearest-wins picks.
def mcp = asWritten.substring(asWritten.indexOf('on project team-mcp:'))
assert mcp.contains('Dependency convergence error for tools.jackson.core:jackson-databind:jar:3.1.8') : mcp
assert mcp.contains('+-com.networknt:json-schema-validator:jar:3.0.8:compile') : mcp
assert mcp.contains('Dependency convergence error for org.slf4j:slf4j-api:jar:2.0.19') : mcp
// Aligned as the docs say (adapters/index.md, adapters/mcp-java-sdk.md), every team project converges.
def summary2 = runs[2].readLines().findAll { it =~ /team-/ }
['team-openai-java', 'team-anthropic-java', 'team-spring-ai', 'team-langchain4j', 'team-mcp'].each { m ->
    assert summary2.any { it =~ /${m} \.+ SUCCESS/ } : runs[2]
}
assert runs[2].contains('BUILD SUCCESS')
return true
