evaluate(new File(itSources, 'build-log.groovy'))
def dir = basedir.canonicalPath
def want0 = "${dir}/cassettes/c06d109f908d3f58.json:13:22 [secrets]: OpenAI API key (openai-key) at \$.response.choices[0].message.content: sk-p****, fingerprint a5bd6b249a2c7f72. Re-record it (mvn resilience:record redacts before writing) or remove the value; if it is no secret, add its fingerprint to redaction.allow".toString()
assertErrorLine(want0)
def want1 = "${dir}/cassettes/c06d109f908d3f58.json:23:13 [secrets]: E-mail address (email-address) at \$.response.note: alic****, fingerprint 2337e43b95e3bb53. Re-record it (mvn resilience:record redacts before writing) or remove the value; if it is no secret, add its fingerprint to redaction.allow".toString()
assertErrorLine(want1)
def want2 = "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:scan-secrets (default) on project it-secrets-violation: resilience:scan-secrets: 2 violations (secrets 2); SARIF: ${dir}/target/resilience/secrets.sarif -> [Help 1]".toString()
assertErrorLine(want2)
assert !log.contains('Q7xK2mB9vR4tL8wN') : "raw secret in the log"
def sarif = new File(basedir, 'target/resilience/secrets.sarif').text
assert sarif.contains('"version" : "2.1.0"') || sarif.contains('"version":"2.1.0"')
assert !sarif.contains('Q7xK2mB9vR4tL8wN') : "raw secret in SARIF"
assert !sarif.contains('alice.smith') : "raw e-mail in SARIF"
return true
