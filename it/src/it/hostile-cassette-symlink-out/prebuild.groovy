evaluate(new File(itSources, 'hostile.groovy'))
import java.nio.file.Files
import java.nio.file.attribute.PosixFilePermissions
// Outside the cassette folder: 2 GiB of nothing, and no read permission. Following the link would show.
def outside = new File(basedir, 'outside')
outside.mkdirs()
def target = new File(outside, 'secret.json')
def link = new File(basedir, 'cassettes/c06d109f908d3f58.json').toPath()
Files.deleteIfExists(link)
Files.deleteIfExists(target.toPath())
new RandomAccessFile(target, 'rw').withCloseable { it.setLength(2L * 1024 * 1024 * 1024) }
try {
    Files.setPosixFilePermissions(target.toPath(), PosixFilePermissions.fromString('---------'))
} catch (UnsupportedOperationException e) {
    target.setReadable(false, false)
}
Files.createSymbolicLink(link, java.nio.file.Paths.get('..', 'outside', 'secret.json'))

rememberCassettes()
return true
