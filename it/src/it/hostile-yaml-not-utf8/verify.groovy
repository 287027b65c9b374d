evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-not-utf8: ${dir}/resilience.yaml:5:14: the file is not valid UTF-8: byte 0xe9 cannot be decoded here; save the file as UTF-8 -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
