evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/cassettes/mcp/billing/refund.json [cassettes]: at exchanges[0].response: has both \"result\" and \"error\"; an answer is one of them. Fix the file, or delete it and run mvn resilience:record".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default-cli) on project it-hostile-mcp-session-tampered: resilience:verify-cassettes: 1 violation (cassettes 1) -> [Help 1]".toString()
]
def log = assertRefused(want)
assert log.contains("[INFO] Checked 4 cassettes in ${dir}/cassettes") : "two cassettes and two MCP sessions"
assert !log.contains("[WARNING]") : "the mcp/ folder is neither an orphan nor a stray entry"
return true
