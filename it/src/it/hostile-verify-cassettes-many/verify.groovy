evaluate(new File(itSources, 'hostile.groovy'))
def dir = basedir.canonicalPath
def pipe = java.nio.file.Files.exists(new File(basedir, "cassettes/pipe.json").toPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS)
def n = pipe ? 8 : 7
def want = [
    "${dir}/cassettes/0123456789abcdef.json [cassettes]: the file name is not its request's fingerprint (bound 6a7d7208cfa2929e.json, actual 0123456789abcdef.json). Rename it to 6a7d7208cfa2929e.json, or re-record it with mvn resilience:record".toString(),
    "${dir}/cassettes/c06d109f908d3f58.json:13:7 [cassettes] op 'plan': is not valid JSON: the file ends before the JSON is complete (is it truncated?). Fix the file, or delete it and run mvn resilience:record".toString(),
    "${dir}/cassettes/c5f22652c3d6c3c8.json [cassettes] op 'patch': holds a JSON array, not an object; a cassette is {\"request\": {...}, \"response\": {...}}. Fix the file, or delete it and run mvn resilience:record".toString(),
    "${dir}/cassettes/dir.json [cassettes]: is a folder, not a cassette file. Remove it from the cassette folder".toString(),
    "${dir}/cassettes/link.json [cassettes]: is a symbolic link leading out of the cassette folder ${dir}/cassettes; it was not followed. Replace the link with the cassette file itself".toString(),
    "${dir}/cassettes/notes.json [cassettes]: has no \"request\"; a cassette is {\"request\": {...}, \"response\": {...}}. Fix the file, or delete it and run mvn resilience:record".toString(),
    "${dir}/resilience.yaml:6:24: scenarios[0].ops[2] [cassettes] op 'review': no cassette for op 'review': looked for aed443b7af0e3ebc.json; the nearest recorded request is 0123456789abcdef.json, which differs at op. Run mvn resilience:record to record it".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default-cli) on project it-hostile-verify-cassettes-many: resilience:verify-cassettes: ${n} violations (cassettes ${n}) -> [Help 1]".toString()
]
if (pipe) {
    want.add(6, "${dir}/cassettes/pipe.json [cassettes]: is not a regular file (a device, pipe or socket). Remove it from the cassette folder".toString())
}
def log = assertRefused(want)
assert log.contains("[WARNING] ${dir}/cassettes/.c06d109f908d3f58.json.4f1c2a9e0b7d3e65.tmp: left over from a recording that was interrupted; it is not a cassette and is never read. Delete it".toString()) : "the leftover warning"
return true
