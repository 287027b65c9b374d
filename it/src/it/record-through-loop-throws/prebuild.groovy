// A provider stub on loopback that answers chat completions and keeps every body it was sent.
import com.sun.net.httpserver.HttpServer
import groovy.json.JsonSlurper
import groovy.json.JsonOutput

def bodies = Collections.synchronizedList([])
def server = HttpServer.create(new InetSocketAddress(InetAddress.getByName('127.0.0.1'), 0), 0)
server.createContext('/v1/chat/completions') { ex ->
    def text = ex.requestBody.getText('UTF-8')
    bodies << text
    def body = new JsonSlurper().parseText(text)
    def answer = JsonOutput.toJson([object: 'chat.completion', model: body.model,
        choices: [[index: 0, finish_reason: 'stop', message: [role: 'assistant',
            content: 'done: ' + body.messages[0].content]]]]).getBytes('UTF-8')
    ex.responseHeaders.add('Content-Type', 'application/json')
    ex.sendResponseHeaders(200, answer.length)
    ex.responseBody.withCloseable { it.write(answer) }
}
server.start()
System.properties.put('it.record.loop.stub', [server: server, bodies: bodies])

// No loop: in the yaml, and no requests: the loop's SDK makes every request.
new File(basedir, 'resilience.yaml').text = """version: 1
policy:
  max_total_wait: 30s
scenarios:
  - name: refund-flow
    ops: [plan, refund]
    faults: [none, none]
provider:
  base_url: http://127.0.0.1:${server.address.port}/v1
  api_key_env: PROVIDER_API_KEY
"""
return true
