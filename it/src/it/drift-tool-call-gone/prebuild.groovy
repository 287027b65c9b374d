// A provider stub on loopback: the first two requests (the recording) are answered as recorded, a tool call for
// the request with tools; every later one answers that request in text, without choices[0].message.tool_calls.
import com.sun.net.httpserver.HttpServer
import java.util.concurrent.atomic.AtomicInteger
import groovy.json.JsonSlurper
import groovy.json.JsonOutput

def requests = new AtomicInteger()
def server = HttpServer.create(new InetSocketAddress(InetAddress.getByName('127.0.0.1'), 0), 0)
server.createContext('/v1/chat/completions') { ex ->
    int n = requests.incrementAndGet()
    def body = new JsonSlurper().parse(ex.requestBody)
    def message = [role: 'assistant', content: 'done: ' + body.messages[0].content]
    def finish = 'stop'
    if (body.tools && n <= 2) {
        message = [role: 'assistant', content: null, tool_calls: [[id: 'call_' + n, type: 'function',
            function: [name: 'lookup_order', arguments: '{"order": 7}']]]]
        finish = 'tool_calls'
    }
    def answer = JsonOutput.toJson([
        id: 'chatcmpl-' + n, object: 'chat.completion', created: 1767225600 + n, model: body.model,
        choices: [[index: 0, finish_reason: finish, message: message]],
        usage: [prompt_tokens: 12, completion_tokens: 5, total_tokens: 17]]).getBytes('UTF-8')
    ex.responseHeaders.add('Content-Type', 'application/json')
    ex.sendResponseHeaders(200, answer.length)
    ex.responseBody.withCloseable { it.write(answer) }
}
server.start()
System.properties.put('it.drift.stub', [server: server, requests: requests])

new File(basedir, 'resilience.yaml').text = """version: 1
policy:
  max_total_wait: 30s
requests:
  lookup:
    model: m-1
    messages: [{role: user, content: where is order 7}]
    tools:
      - type: function
        function:
          name: lookup_order
          parameters: {type: object, properties: {order: {type: integer}}, required: [order]}
  summary: {model: m-1, messages: [{role: user, content: sum it up}]}
scenarios:
  - name: find-then-sum
    ops: [lookup, summary]
provider:
  base_url: http://127.0.0.1:${server.address.port}/v1
  api_key_env: PROVIDER_API_KEY
drift:
  latency_margin: 10s   # a busy build machine's loopback jitter is not what this build is about
"""
return true
