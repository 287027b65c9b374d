// A client out of process for resilience:serve. Once the build log names serve's port, it sends the recorded
// requests past requests_per_minute (run 'window'), resets to run 'quota' and sends them past token_quota, then
// stops the build's Maven process with SIGTERM, as Ctrl-C would, so serve writes its report. Every wait is bounded.
import groovy.json.JsonSlurper
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

def log = new File(basedir, 'build.log')
def client = [responses: [:], error: null]
def http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build()

def maven = {
    ProcessHandle.current().descendants().filter { p ->
        def line = p.info().commandLine().orElse('')
        p.info().command().orElse('').endsWith('/java') && line.contains('resilience:serve') && line.contains('-Dresilience.scenario=window')
    }.findFirst().orElse(null)
}

client.thread = Thread.start('serve-provider-limits-client') {
    try {
        String port = null
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos()
        while (port == null && System.nanoTime() < deadline) {
            def text = log.exists() ? log.text : ''
            def m = text =~ /Serving replay on http:\/\/127\.0\.0\.1:(\d+)\/v1/
            if (m.find()) {
                port = m.group(1)
            } else if (text.contains('BUILD FAILURE') || text.contains('BUILD SUCCESS')) {
                break
            } else {
                Thread.sleep(200)
            }
        }
        if (port == null) {
            client.error = 'serve never said where it listens'
            return
        }
        def post = { String path, String body ->
            http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}${path}"))
                    .timeout(Duration.ofSeconds(20)).header('Content-Type', 'application/json')
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString())
        }
        def op = { String name -> post('/v1/chat/completions', '{"op": "' + name + '"}') }
        // Run 'window': two a (6 s) minute, the third refused; once its Retry-After has passed, the retry goes through.
        client.responses.plan = op('plan')
        client.responses.patch = op('patch')
        client.responses.test = op('test')
        long ms = Long.parseLong(client.responses.test.headers().firstValue('retry-after-ms').orElse('0'))
        Thread.sleep(Math.min(ms, 6000) + 200)
        client.responses.testAgain = op('test')
        client.responses.reset = post('/_harness/reset?scenario=quota', '')
        // Run 'quota': 150 tokens an answer, a quota of 300; the call that reaches it is answered, the next refused.
        client.responses.quotaPlan = op('plan')
        client.responses.quotaPatch = op('patch')
        client.responses.quotaTest = op('test')
    } catch (Throwable e) {
        client.error = e.toString()
    } finally {
        def p = maven()
        if (p != null) {
            p.destroy()
            p.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS)
        }
    }
}
System.properties.put('it.serve.client', client)
return true
