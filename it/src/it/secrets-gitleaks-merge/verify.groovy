// The merge accepts a shard's finding of the team's rule (.gitleaks.toml in the project's folder): it keeps the
// rule's id in report.json and secrets.sarif, masked, and fails the build on it with the line the check prints.
import groovy.json.JsonSlurper

evaluate(new File(itSources, 'build-log.groovy'))
def json = { String path -> new JsonSlurper().parse(new File(basedir, path)) }
def dir = basedir.canonicalPath
def want0 = "${dir}/cassettes/c06d109f908d3f58.json:13:22 [secrets]: Team rule (acme-internal-token) at \$.response.choices[0].message.content: q8zr****, fingerprint eb9a8c359e9993ed. Re-record it (mvn resilience:record redacts before writing) or remove the value; if it is no secret, add its fingerprint to redaction.allow".toString()
assertErrorLine(want0)
assert errors.any { it.startsWith('Failed to execute goal dev.resilienceharness:harness-maven-plugin:') \
        && it.contains(':merge (default-cli) on project it-secrets-gitleaks-merge: resilience:merge: 1 violation (secrets 1)') }
assert !log.contains('damaged') : "the team rule's id is no damage"
def shards = (1..2).collectMany { json("target/shards/shard-${it}/report.json").secrets.findings*.rule }
assert shards == ['acme-internal-token'] : shards
def merged = json('target/resilience/report.json').secrets.findings
assert merged*.rule == ['acme-internal-token'] && merged*.masked == ['q8zr****'] : merged
def sarif = json('target/resilience/secrets.sarif')
assert sarif.runs[0].results*.ruleId == ['acme-internal-token']
assert sarif.runs[0].tool.driver.rules[sarif.runs[0].results[0].ruleIndex].id == 'acme-internal-token'
assert !new File(basedir, 'target/resilience/secrets.sarif').text.contains('q8zr2lm5') : "raw secret in SARIF"
assert !log.contains('q8zr2lm5') : "raw secret in the log"
return true
