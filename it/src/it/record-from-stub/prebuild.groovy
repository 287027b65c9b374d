// A provider stub on loopback: answers chat completions, counts requests, checks the Bearer key, and puts a
// fake secret and an e-mail address in every answer so the recording must redact them.
import com.sun.net.httpserver.HttpServer
import java.util.concurrent.atomic.AtomicInteger
import groovy.json.JsonSlurper
import groovy.json.JsonOutput

def requests = new AtomicInteger()
def badKeys = new AtomicInteger()
def server = HttpServer.create(new InetSocketAddress(InetAddress.getByName('127.0.0.1'), 0), 0)
server.createContext('/v1/chat/completions') { ex ->
    requests.incrementAndGet()
    if (ex.requestHeaders.getFirst('Authorization') != 'Bearer sk-test-LoopbackOnlyKey0123456789abcdef') {
        badKeys.incrementAndGet()
    }
    def body = new JsonSlurper().parse(ex.requestBody)
    def answer = JsonOutput.toJson([
        id: 'chatcmpl-' + requests.get(), object: 'chat.completion', created: 1767225600 + requests.get(),
        model: body.model, system_fingerprint: 'fp_0123abcd',
        choices: [[index: 0, finish_reason: 'stop', message: [role: 'assistant',
            content: 'done: ' + body.messages[0].content + '; deploy with sk-proj-Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gFeDcBa9876 and mail ops@example.org']]],
        usage: [prompt_tokens: 5, completion_tokens: 7, total_tokens: 12]]).getBytes('UTF-8')
    ex.responseHeaders.add('Content-Type', 'application/json')
    ex.responseHeaders.add('x-request-id', 'req_' + requests.get())
    ex.sendResponseHeaders(200, answer.length)
    ex.responseBody.withCloseable { it.write(answer) }
}
server.start()
System.properties.put('it.record.stub', [server: server, requests: requests, badKeys: badKeys])

new File(basedir, 'resilience.yaml').text = """version: 1
policy:
  max_total_wait: 30s
requests:
  plan: {model: m-1, messages: [{role: user, content: plan the fix}]}
  patch: {model: m-1, messages: [{role: user, content: patch the repo}]}
scenarios:
  - name: transient-then-ok
    ops: [plan, patch]
    faults: [timeout, none]
    expect: {status: [ok, ok], attempts: [2, 1]}
provider:
  base_url: http://127.0.0.1:${server.address.port}/v1
  api_key_env: PROVIDER_API_KEY
"""
return true
