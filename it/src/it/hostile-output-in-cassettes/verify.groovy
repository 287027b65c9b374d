evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:report (default-cli) on project it-hostile-output-in-cassettes: ${dir}/cassettes: the output directory is inside the cassette folder ${dir}/cassettes, where reports would mix with the cassettes; point resilience.outputDirectory elsewhere (the default is target/resilience) -> [Help 1]".toString()
]
// assertRefused also checks that cassettes/ holds exactly what it held: no report.html, no junit/.
def log = assertRefused(want)
return true
