evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/cassettes/c06d109f908d3f58.json [cassettes] op 'plan': has a tool schema that cannot be used: request.tools[0].function.parameters: the schema of tool 'slug' refers to itself in a cycle (\$ref at # leads back to #); a \$ref must lead to a schema that checks something. Fix the file, or delete it and run mvn resilience:record".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default-cli) on project it-hostile-cassette-cyclic-schema: resilience:verify-cassettes: 1 violation (cassettes 1) -> [Help 1]".toString()
]
def log = assertRefused(want)
assert !log.contains("StackOverflowError") : "no stack overflow"
return true
