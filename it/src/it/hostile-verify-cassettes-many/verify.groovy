// The state of cassettes/ as a sorted list of lines: a file's SHA-256, a link's target (never followed), or
// what else an entry is. Compared before and after the build: the goal must change nothing there.
def snapshot = { File folder ->
    def lines = []
    folder.listFiles().sort { it.name }.each { f ->
        def p = f.toPath()
        if (java.nio.file.Files.isSymbolicLink(p)) {
            lines << "${f.name} -> ${java.nio.file.Files.readSymbolicLink(p)}"
        } else if (java.nio.file.Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            lines << "${f.name}/"
        } else if (!java.nio.file.Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            lines << "${f.name} (special)"
        } else {
            def sha = java.security.MessageDigest.getInstance('SHA-256')
            f.withInputStream { ins -> byte[] buf = new byte[65536]; int n; while ((n = ins.read(buf)) > 0) { sha.update(buf, 0, n) } }
            lines << "${f.name} ${sha.digest().encodeHex()} ${f.length()}"
        }
    }
    lines.join('\n')
}

def log = new File(basedir, 'build.log').text
def dir = basedir.canonicalPath
def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
// Maven's own advice follows the goal's failure line; everything up to that line is the plugin's.
def failed = errors.findIndexOf { it.startsWith('Failed to execute goal ') }
assert failed >= 0 : "the build did not fail:\n" + log
def pipe = java.nio.file.Files.exists(new File(basedir, "cassettes/pipe.json").toPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS)
def n = pipe ? 8 : 7
def want = [
    "${dir}/cassettes/0123456789abcdef.json [cassettes]: the file name is not its request's fingerprint (bound 6a7d7208cfa2929e.json, actual 0123456789abcdef.json). Rename it to 6a7d7208cfa2929e.json, or re-record it with mvn resilience:record".toString(),
    "${dir}/cassettes/c06d109f908d3f58.json:13:7 [cassettes] op 'plan': is not valid JSON: the file ends before the JSON is complete (is it truncated?). Fix the file, or delete it and run mvn resilience:record".toString(),
    "${dir}/cassettes/c5f22652c3d6c3c8.json [cassettes] op 'patch': holds a JSON array, not an object; a cassette is {\"request\": {...}, \"response\": {...}}. Fix the file, or delete it and run mvn resilience:record".toString(),
    "${dir}/cassettes/dir.json [cassettes]: is a folder, not a cassette file. Remove it from the cassette folder".toString(),
    "${dir}/cassettes/link.json [cassettes]: is a symbolic link leading out of the cassette folder ${dir}/cassettes; it was not followed. Replace the link with the cassette file itself".toString(),
    "${dir}/cassettes/notes.json [cassettes]: has no \"request\"; a cassette is {\"request\": {...}, \"response\": {...}}. Fix the file, or delete it and run mvn resilience:record".toString(),
    "${dir}/resilience.yaml:5 [cassettes] op 'review': no cassette aed443b7af0e3ebc.json in ${dir}/cassettes for op 'review'. Run mvn resilience:record to record it".toString(),
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:verify-cassettes (default-cli) on project it-hostile-verify-cassettes-many: resilience:verify-cassettes: ${n} violations (cassettes ${n}) -> [Help 1]".toString()
]
if (pipe) {
    want.add(6, "${dir}/cassettes/pipe.json [cassettes]: is not a regular file (a device, pipe or socket). Remove it from the cassette folder".toString())
}
assert errors.subList(0, failed + 1) == want : "[ERROR] lines differ.\n--- want:\n" + want.join("\n") + "\n--- got:\n" + errors.join("\n")
assert log.contains("[WARNING] ${dir}/cassettes/.c06d109f908d3f58.json.4f1c2a9e0b7d3e65.tmp: left over from a recording that was interrupted; it is not a cassette and is never read. Delete it".toString()) : "the leftover warning"
assert !log.contains("\tat ") : "no stack trace"
assert !log.contains("Caused by:") : "no exception causes"
def before = new File(basedir, 'cassettes.before').text
def after = snapshot(new File(basedir, 'cassettes'))
assert after == before : "the cassettes changed:\n--- before:\n" + before + "\n--- after:\n" + after
return true
