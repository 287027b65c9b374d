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
def want = [
    "Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:check (default-cli) on project it-hostile-yaml-duration-words: ${dir}/resilience.yaml:3:19: policy.max_total_wait: expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got '15 seconds' -> [Help 1]".toString()
]
assert errors.subList(0, failed + 1) == want : "[ERROR] lines differ.\n--- want:\n" + want.join("\n") + "\n--- got:\n" + errors.join("\n")
assert !log.contains("\tat ") : "no stack trace"
assert !log.contains("Caused by:") : "no exception causes"
def before = new File(basedir, 'cassettes.before').text
def after = snapshot(new File(basedir, 'cassettes'))
assert after == before : "the cassettes changed:\n--- before:\n" + before + "\n--- after:\n" + after
return true
