// The four shards merged equal the unsharded run in violations, counts and per-scenario results, and the merge
// fails the build with the same violation lines the unsharded report warned about.
import groovy.json.JsonOutput
import groovy.json.JsonSlurper

evaluate(new File(itSources, 'build-log.groovy'))
def json = { String path -> new JsonSlurper().parse(new File(basedir, path)) }
def canonical = { Object node -> JsonOutput.toJson(node) }
def sortedItems = { List items -> items.collect { canonical(it) }.sort() }

def whole = json('target/whole/report.json')
def merged = json('target/resilience/report.json')
assert merged.summary == whole.summary
assert whole.summary.violations >= 12 : whole.summary
assert whole.summary.by_invariant.expectations >= 8 && whole.summary.by_invariant.cassettes >= 3
assert whole.summary.by_invariant.secrets == 1
assert sortedItems(merged.scenarios) == sortedItems(whole.scenarios)
assert merged.scenarios*.name == whole.scenarios*.name : "the merge keeps the yaml's order"
assert merged.cassettes.checked == whole.cassettes.checked
assert sortedItems(merged.cassettes.violations) == sortedItems(whole.cassettes.violations)
assert sortedItems(merged.cassettes.warnings) == sortedItems(whole.cassettes.warnings)
assert merged.secrets == whole.secrets

// Each shard did a part: its own scenarios and cassettes, and together all of them once.
def parts = (1..4).collect { json("target/shards/shard-${it}/report.json") }
// lints-0 and lints-1 need lint's cassette, and another shard owns a copy of it saved under another name: their
// shards run them, and the merge holds them back as the unsharded run does, with the same warning.
assert parts.sum { it.scenarios.size() } == whole.scenarios.size() + 2
['lints-0', 'lints-1'].each { name ->
    assert parts.any { p -> p.scenarios*.name.contains(name) }
    assert !whole.scenarios*.name.contains(name) && !merged.scenarios*.name.contains(name)
    assert merged.cassettes.warnings.contains("Scenario '${name}' was not run: op 'lint' needs ".toString()
            + new File(basedir, 'cassettes/03df0c0d9c6c1be1.json').path + ', which has a cassette violation below')
}
assert parts.sum { it.cassettes.checked } == whole.cassettes.checked
parts.each { assert it.scenarios.size() < whole.scenarios.size() }
(1..4).each {
    def marker = json("target/shards/shard-${it}/shard.json")
    assert marker.shard == "${it}/4".toString()
    assert marker.inputs == json('target/shards/shard-1/shard.json').inputs
}
assert !new File(basedir, 'target/whole/shard.json').exists()
(1..4).each { k ->
    assert log.readLines().any { it ==~ /\[INFO\] Shard ${k}\/4: \d+ of 76 scenarios \(by a hash of their names\)/ }
    assert log.readLines().any { it ==~ /\[INFO\] Shard ${k}\/4: \d+ of 12 cassettes \(by a hash of their file names\)/ }
}

// The merge fails on the shards' violations, one [ERROR] line each: the lines the unsharded report warned with.
def warned = log.readLines().findAll { it.startsWith('[WARNING] ') }.collect { it.substring(10) }
def violationLines = whole.scenarios.collectMany { s -> s.violations*.message } + whole.cassettes.violations*.message
violationLines.each { line ->
    assert warned.contains(line) : "the unsharded report warns: " + line
    assertErrorLine(line)
}
def secretLine = errors.find { it.contains('[secrets]: OpenAI API key (openai-key)') }
assert secretLine != null && warned.contains(secretLine)
assert log.contains('[INFO] Merged 4 shards: ' + whole.scenarios.size() + ' scenarios, 12 cassettes')
assert errors.any { it.startsWith('Failed to execute goal dev.resilienceharness:harness-maven-plugin:') \
        && it.contains(':merge (default-cli) on project it-shards-merge: resilience:merge: ' \
        + whole.summary.violations + ' violations (') }
['report.html', 'junit/TEST-resilience.xml', 'secrets.sarif'].each {
    assert new File(basedir, "target/resilience/${it}").length() > 0 : it
}
def sarif = json('target/resilience/secrets.sarif')
assert sarif.runs[0].results*.ruleId == ['openai-key']
assert sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri == 'cassettes/a312c6ca79177001.json'
// The JUnit XML has the same test cases with the same failures (the warnings it carries may come in another order).
def cases = { String path ->
    def suite = new groovy.xml.XmlSlurper().parse(new File(basedir, path))
    [suite.@tests.text(), suite.@failures.text(), suite.testcase.collect { c ->
        "${c.@classname} ${c.@name} ${c.failure.@message}".toString() }.sort()]
}
assert cases('target/resilience/junit/TEST-resilience.xml') == cases('target/whole/junit/TEST-resilience.xml')
return true
