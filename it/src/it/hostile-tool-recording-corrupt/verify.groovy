evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def want = [
    "${dir}/cassettes/tools/0123456789abcdef.json:1:35 [cassettes]: is not valid JSON: the file ends before the JSON is complete (is it truncated?). Fix the file, or delete it and run mvn resilience:record".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default-cli) on project it-hostile-tool-recording-corrupt: resilience:verify-cassettes: 1 violation (cassettes 1) -> [Help 1]".toString()
]
def log = assertRefused(want)
assert log.contains("[INFO] Checked 4 cassettes in ${dir}/cassettes") : "two cassettes and two tool recordings"
assert !log.contains("[WARNING]") : "the tools/ folder is neither an orphan nor a stray entry"
return true
