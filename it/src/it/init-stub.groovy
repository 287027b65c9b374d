// Shared by the init-* builds' prebuild.groovy: a provider stub on loopback that answers chat completions and
// Anthropic's Messages API, counts requests and checks the key (a Bearer token, or x-api-key for the Messages API);
// .mvn/maven.config points resilience:init's base URL at it.
import com.sun.net.httpserver.HttpServer
import java.util.concurrent.atomic.AtomicInteger
import groovy.json.JsonSlurper
import groovy.json.JsonOutput

startInitStub = { String name ->
    def requests = new AtomicInteger()
    def badKeys = new AtomicInteger()
    def server = HttpServer.create(new InetSocketAddress(InetAddress.getByName('127.0.0.1'), 0), 0)
    server.createContext('/v1/chat/completions') { ex ->
        requests.incrementAndGet()
        if (ex.requestHeaders.getFirst('Authorization') != 'Bearer sk-test-LoopbackOnlyKey0123456789abcdef') {
            badKeys.incrementAndGet()
        }
        def body = new JsonSlurper().parse(ex.requestBody)
        // a request that offers a tool gets a call of it with valid arguments, as the built-in loop's patch expects
        def message = body.tools ? [role: 'assistant', content: null, tool_calls: [[id: 'call_1', type: 'function',
                function: [name: body.tools[0].function.name, arguments: '{"path":"a.py","diff":"-x\\n+y"}']]]]
            : [role: 'assistant', content: 'done: ' + body.messages[0].content]
        def answer = JsonOutput.toJson([id: 'chatcmpl-' + requests.get(), object: 'chat.completion',
            created: 1767225600 + requests.get(), model: body.model,
            choices: [[index: 0, finish_reason: body.tools ? 'tool_calls' : 'stop', message: message]],
            usage: [prompt_tokens: 5, completion_tokens: 7, total_tokens: 12]]).getBytes('UTF-8')
        ex.responseHeaders.add('Content-Type', 'application/json')
        ex.sendResponseHeaders(200, answer.length)
        ex.responseBody.withCloseable { it.write(answer) }
    }
    server.createContext('/v1/messages') { ex ->
        requests.incrementAndGet()
        if (ex.requestHeaders.getFirst('x-api-key') != 'sk-test-LoopbackOnlyKey0123456789abcdef'
                || ex.requestHeaders.getFirst('Authorization') != null) {
            badKeys.incrementAndGet()
        }
        def body = new JsonSlurper().parse(ex.requestBody)
        def content = body.messages[0].content
        def asked = content instanceof String ? content : content[0].text
        def answer = JsonOutput.toJson([id: 'msg_' + requests.get(), type: 'message', role: 'assistant',
            model: body.model, content: [[type: 'text', text: 'done: ' + asked]], stop_reason: 'end_turn',
            stop_sequence: null, usage: [input_tokens: 5, output_tokens: 7]]).getBytes('UTF-8')
        ex.responseHeaders.add('Content-Type', 'application/json')
        ex.sendResponseHeaders(200, answer.length)
        ex.responseBody.withCloseable { it.write(answer) }
    }
    server.start()
    System.properties.put(name, [server: server, requests: requests, badKeys: badKeys])
    new File(basedir, '.mvn').mkdirs()
    new File(basedir, '.mvn/maven.config').text = "-Dresilience.init.baseUrl=http://127.0.0.1:${server.address.port}/v1\n"
}
