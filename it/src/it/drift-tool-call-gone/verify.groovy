def stub = System.properties.remove('it.drift.stub')
stub.server.stop(0)
evaluate(new File(itSources, 'build-log.groovy'))
assert stub.requests.get() == 6 : "two ops recorded, then sent by each drift run: " + stub.requests.get()

def cassettes = new File(basedir, 'cassettes').listFiles().findAll { it.name.endsWith('.json') }
assert cassettes.size() == 2
def lookup = cassettes.find { it.text.contains('lookup_order') && it.text.contains('"tool_calls"') }
assert lookup != null : "the lookup cassette was rewritten: " + cassettes*.text
def name = 'cassettes/' + lookup.name

// Without failOnDrift the drift is a warning; with it, an error naming the cassette, the op and the missing path.
def gone = name + " (op lookup): choices[0].message.tool_calls: the tool call is gone (the cassette calls 'lookup_order')"
assert log.contains('[WARNING] ' + gone) : log
assertErrorLine(gone)
assertErrorLine(name + " (op lookup): choices[0].finish_reason: was 'tool_calls', is now 'stop'")
assert errors.any { it.contains('resilience:drift: 1 of 2 cassettes drifted from the provider; see the lines above') } :
        errors.join('\n')
assert log.contains('2 cassettes checked: 1 drifted, 1 unchanged')
assert log.contains('the cassettes are unchanged; re-record the drifted ones with -Dresilience.drift.update=true')
assert !log.contains('re-recorded from the live answer')

def drift = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/resilience/drift.json'))
assert drift.drifted == 1 && drift.unchanged == 1
def entry = drift.cassettes.find { it.op == 'lookup' }
assert entry.cassette == name && entry.status == 'drifted' && !entry.updated
assert entry.changes.any { it.kind == 'tool_call_gone' && it.path == 'choices[0].message.tool_calls' }
def page = new File(basedir, 'target/resilience/report.html').text
assert page.contains('<section id="drift"><h2>Drift</h2>') : page
assert page.contains('<td><code>' + name + '</code></td><td>lookup</td><td>drifted</td>')
assert page.contains('choices[0].message.tool_calls: the tool call is gone')
assert !log.contains('LoopbackOnlyKey')
return true
