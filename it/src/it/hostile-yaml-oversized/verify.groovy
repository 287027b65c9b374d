evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-oversized: ${dir}/resilience.yaml: the file is 5242996 bytes; the limit is 4 MiB -> [Help 1]".toString()
]
def log = assertRefused(want)
return true
