System.properties.remove('it.record.mcp.stub').stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
assert log.contains('[INFO] refund-flow: MCP server \'ledger\': ledger ready') : "the server's stderr reaches the log"
assert log.contains('[INFO] refund-flow: MCP server \'ledger\': recorded 3 exchanges into cassettes/mcp/ledger/refund-flow.json') : log
def session = new File(basedir, 'cassettes/mcp/ledger/refund-flow.json')
assert session.isFile()
def text = session.getText('UTF-8')
assert text.contains('"method": "initialize"') && text.contains('"method": "tools/call"') : text
assert !text.contains('sk_live_') && text.contains('[REDACTED:') : "the session is written redacted"
// The check that follows replays the session: the server was started once, by the recording.
assert new File(basedir, 'target/ledger-starts.txt').readLines() == ['started']
assert log.contains('BUILD SUCCESS')
return true
