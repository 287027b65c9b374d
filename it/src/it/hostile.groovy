// Shared by the hostile-* builds: their prebuild.groovy and verify.groovy run it first, with their own binding,
//     evaluate(new File(itSources, 'hostile.groovy'))
// and then call what it defines. itSources is src/it, given to every script by the invoker configuration.
import java.nio.file.Files
import java.nio.file.LinkOption
import java.nio.file.Paths
import java.security.MessageDigest

// The state of cassettes/ as a sorted list of lines: a file's SHA-256, a link's target (never followed), or
// what else an entry is. Compared before and after the build: the goal must change nothing there.
snapshot = { File folder ->
    def lines = []
    folder.listFiles().sort { it.name }.each { f ->
        def p = f.toPath()
        if (Files.isSymbolicLink(p)) {
            lines << "${f.name} -> ${Files.readSymbolicLink(p)}"
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            lines << "${f.name}/"
        } else if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            lines << "${f.name} (special)"
        } else {
            def sha = MessageDigest.getInstance('SHA-256')
            f.withInputStream { ins -> byte[] buf = new byte[65536]; int n; while ((n = ins.read(buf)) > 0) { sha.update(buf, 0, n) } }
            lines << "${f.name} ${sha.digest().encodeHex()} ${f.length()}"
        }
    }
    lines.join('\n')
}

// Before the build: remember the state of cassettes/.
rememberCassettes = {
    new File(basedir, 'cassettes.before').text = snapshot(new File(basedir, 'cassettes'))
}

// What git cannot hold: a folder and a named pipe where cassettes belong, a link out of the folder to a
// 2 GiB sparse file, and the temporary file of a write that was killed. Reading the pipe would hang the build.
plantWhatGitCannotHold = {
    def cassettes = new File(basedir, 'cassettes')
    new File(cassettes, 'dir.json').mkdirs()
    def pipe = new File(cassettes, 'pipe.json')
    if (!pipe.exists()) {
        try {
            ['mkfifo', pipe.path].execute().waitFor()
        } catch (IOException e) {
            // No mkfifo on this platform: the case runs without the pipe.
        }
    }
    def outside = new File(basedir, 'outside')
    outside.mkdirs()
    new RandomAccessFile(new File(outside, 'big.json'), 'rw').withCloseable { it.setLength(2L * 1024 * 1024 * 1024) }
    def link = new File(cassettes, 'link.json').toPath()
    Files.deleteIfExists(link)
    Files.createSymbolicLink(link, Paths.get('..', 'outside', 'big.json'))
    new File(cassettes, '.c06d109f908d3f58.json.4f1c2a9e0b7d3e65.tmp').text = '{\n  "request": {\n    "op": "pl'
}

// After the build: it failed with exactly the [ERROR] lines in want up to the goal's failure line (Maven's own
// advice follows it), printed no stack trace, and left cassettes/ as it found it. Returns the build log.
assertRefused = { List<String> want ->
    def log = new File(basedir, 'build.log').text
    def errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
    def failed = errors.findIndexOf { it.startsWith('Failed to execute goal ') }
    assert failed >= 0 : "the build did not fail:\n" + log
    assert errors.subList(0, failed + 1) == want : "[ERROR] lines differ.\n--- want:\n" + want.join("\n") + "\n--- got:\n" + errors.join("\n")
    assert !log.contains("\tat ") : "no stack trace"
    assert !log.contains("Caused by:") : "no exception causes"
    def before = new File(basedir, 'cassettes.before').text
    def after = snapshot(new File(basedir, 'cassettes'))
    assert after == before : "the cassettes changed:\n--- before:\n" + before + "\n--- after:\n" + after
    log
}
