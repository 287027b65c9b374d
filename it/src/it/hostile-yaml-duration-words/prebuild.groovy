
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
