// A provider stub on loopback that answers chat completions.
import com.sun.net.httpserver.HttpServer
import groovy.json.JsonSlurper
import groovy.json.JsonOutput

def server = HttpServer.create(new InetSocketAddress(InetAddress.getByName('127.0.0.1'), 0), 0)
server.createContext('/v1/chat/completions') { ex ->
    def body = new JsonSlurper().parseText(ex.requestBody.getText('UTF-8'))
    def answer = JsonOutput.toJson([object: 'chat.completion', model: body.model,
        choices: [[index: 0, finish_reason: 'stop', message: [role: 'assistant',
            content: 'look it up']]]]).getBytes('UTF-8')
    ex.responseHeaders.add('Content-Type', 'application/json')
    ex.sendResponseHeaders(200, answer.length)
    ex.responseBody.withCloseable { it.write(answer) }
}
server.start()
System.properties.put('it.record.mcp.stub', server)

// The ledger runs from the project's test classes, started by the recording from the yaml's folder.
new File(basedir, 'resilience.yaml').text = """version: 1
loop: com.acme.LedgerAgent
policy:
  max_total_wait: 30s
mcp_servers:
  ledger:
    transport: stdio
    command: [java, -cp, target/test-classes, com.acme.LedgerServer]
scenarios:
  - name: refund-flow
    ops: [lookup]
provider:
  base_url: http://127.0.0.1:${server.address.port}/v1
  api_key_env: PROVIDER_API_KEY
"""
return true
