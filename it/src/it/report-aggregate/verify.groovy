// One page covers every module's scenarios, each under its module's name; the module with a violation shows it.
import groovy.json.JsonSlurper

evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def aggregate = new JsonSlurper().parse(new File(basedir, 'target/resilience-aggregate/report.json'))
assert aggregate.scenarios*.name == ['it-aggregate-m1/m1-transient', 'it-aggregate-m1/m1-quota',
        'it-aggregate-m2/m2-transient', 'it-aggregate-m2/m2-quota', 'it-aggregate-m3/m3-transient',
        'it-aggregate-m3/m3-quota']
assert aggregate.summary.scenarios == 6
assert aggregate.summary.violations == 1
assert aggregate.summary.by_invariant.expectations == 1
def violation = aggregate.scenarios.find { it.name == 'it-aggregate-m2/m2-quota' }.violations[0]
assert violation.message.startsWith("it-aggregate-m2/m2-quota [expectations] op 'patch': expect.status is [ok, ok]")
assert aggregate.cassettes.checked == 18
(1..3).each { m ->
    def module = new JsonSlurper().parse(new File(basedir, "m${m}/target/resilience/report.json"))
    assert module.scenarios.size() == 2
    module.scenarios.each { s ->
        def same = aggregate.scenarios.find { it.name == "it-aggregate-m${m}/${s.name}".toString() }
        assert same.outcomes == s.outcomes && same.calls == s.calls && same.call_budget == s.call_budget
    }
}
def html = new File(basedir, 'target/resilience-aggregate/report.html').text
['it-aggregate-m1/m1-transient', 'it-aggregate-m2/m2-quota', 'it-aggregate-m3/m3-quota'].each {
    assert html.contains(it) : it
}
assert new File(basedir, 'target/resilience-aggregate/junit/TEST-resilience.xml').text.contains('it-aggregate-m3/m3-transient')
assert new File(basedir, 'target/resilience-aggregate/secrets.sarif').isFile()
assert log.contains('[INFO] Aggregated 3 modules: 6 scenarios, 18 cassettes')
assert log.contains("[WARNING] it-aggregate-m2/m2-quota [expectations] op 'patch': expect.status is [ok, ok]")
assert log.readLines().count { it.startsWith('[INFO] --- resilience:') && it.contains(':report-aggregate (default-cli) @ it-aggregate ---') } == 1
return true
