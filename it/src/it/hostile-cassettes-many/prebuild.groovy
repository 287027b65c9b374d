import java.nio.file.Files
import java.nio.file.Paths
// What git cannot hold: a folder and a named pipe where cassettes belong, a link out of the folder to a
// 2 GiB sparse file, and the temporary file of a write that was killed. Reading the pipe would hang the build.
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
new File(basedir, 'cassettes.before').text = snapshot(new File(basedir, 'cassettes'))
return true
