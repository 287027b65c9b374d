evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "${dir}/cassettes/c06d109f908d3f58.json:13:22 [secrets]: Team rule (acme-internal-token) at \$.response.choices[0].message.content: q8zr****, fingerprint eb9a8c359e9993ed. Re-record it (mvn resilience:record redacts before writing) or remove the value; if it is no secret, add its fingerprint to redaction.allow".toString()
assertErrorLine(want0)
def want1 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:scan-secrets (default) on project it-secrets-gitleaks-rules: resilience:scan-secrets: 1 violation (secrets 1); SARIF: ${dir}/target/resilience/secrets.sarif -> [Help 1]".toString()
assertErrorLine(want1)
assert !log.contains('h3gj6f01') : "the allowlisted sandbox token is reported"
assert !log.contains('q8zr2lm5') : "raw secret in the log"
def sarif = new File(basedir, 'target/resilience/secrets.sarif').text
assert sarif.contains('"ruleId" : "acme-internal-token"') : sarif
assert !sarif.contains('q8zr2lm5') : "raw secret in SARIF"
return true
