// A provider stub on loopback whose answers come a little later each time, and a cassette recorded in 2020 for the
// op 'old' (its request is {"op": "old"}, so its name is the fingerprint of that canonical JSON).
import com.sun.net.httpserver.HttpServer
import java.security.MessageDigest
import java.util.concurrent.atomic.AtomicInteger
import groovy.json.JsonSlurper
import groovy.json.JsonOutput

def requests = new AtomicInteger()
def server = HttpServer.create(new InetSocketAddress(InetAddress.getByName('127.0.0.1'), 0), 0)
server.createContext('/v1/chat/completions') { ex ->
    int n = requests.incrementAndGet()
    def body = new JsonSlurper().parse(ex.requestBody)
    Thread.sleep(30L * n)
    def answer = JsonOutput.toJson([
        id: 'chatcmpl-' + n, object: 'chat.completion', created: 1767225600 + n, model: body.model,
        choices: [[index: 0, finish_reason: 'stop', message: [role: 'assistant', content: 'planned']]],
        usage: [prompt_tokens: 5, completion_tokens: 2, total_tokens: 7]]).getBytes('UTF-8')
    ex.responseHeaders.add('Content-Type', 'application/json')
    ex.sendResponseHeaders(200, answer.length)
    ex.responseBody.withCloseable { it.write(answer) }
}
server.start()
System.properties.put('it.samples.stub', [server: server, requests: requests])

def fp = MessageDigest.getInstance('SHA-256').digest('{"op":"old"}'.getBytes('UTF-8')).encodeHex().toString()
        .substring(0, 16)
def folder = new File(basedir, 'cassettes')
folder.mkdirs()
new File(folder, fp + '.json').text = '''{
  "request": {"op": "old"},
  "response": {"done": "old"},
  "recorded_at": "2020-01-01T00:00:00Z"
}
'''
new File(basedir, 'resilience.yaml').text = """version: 1
policy:
  max_total_wait: 30s
requests:
  plan: {model: m-1, messages: [{role: user, content: plan the fix}]}
scenarios:
  - name: real-latency
    ops: [plan, old]
    latency: recorded
    expect: {status: [ok, ok]}
provider:
  base_url: http://127.0.0.1:${server.address.port}/v1
  api_key_env: PROVIDER_API_KEY
drift:
  max_age: 30d
"""
return true
