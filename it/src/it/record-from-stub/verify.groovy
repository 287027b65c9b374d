def stub = System.properties.remove('it.record.stub')
stub.server.stop(0)
def log = new File(basedir, 'build.log').text
assert stub.badKeys.get() == 0 : "the key was not sent as a Bearer token"
assert stub.requests.get() == 2 : "expected one request per op, and none from the second record: " + stub.requests.get()
def cassettes = new File(basedir, 'cassettes').listFiles().findAll { it.name.endsWith('.json') }
assert cassettes.size() == 2
cassettes.each { f ->
    def text = f.text
    assert text.contains('[REDACTED:openai-key:') : f.name + " not redacted:\n" + text
    assert text.contains('[REDACTED:email-address:')
    assert !text.contains('chatcmpl-') && !text.contains('"created"') && !text.contains('system_fingerprint')
    assert f.name ==~ /[0-9a-f]{16}\.json/
}
// Neither the key nor the provider's secret reached any file the build wrote.
basedir.eachFileRecurse { f ->
    if (f.isFile() && !(f.name in ['build.log', 'invoker.properties', 'prebuild.groovy', 'verify.groovy'])
            && f.length() < 10_000_000) {
        def text = f.getText('ISO-8859-1')
        assert !text.contains('LoopbackOnlyKey') : "API key in " + f
        assert !text.contains('Z9yX8wV7uT6sR5qP') : "secret in " + f
    }
}
assert !log.contains('LoopbackOnlyKey')
assert !log.contains('[ERROR]') : log.readLines().findAll { it.startsWith('[ERROR]') }.join('\n')
return true
