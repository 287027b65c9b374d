// A copy of the bundled example project, so that the samples of the README and the docs are compared with what it really prints.
import java.nio.file.Files
import java.nio.file.StandardCopyOption

def example = new File(itSources, '../../../example').canonicalFile.toPath()
def target = basedir.toPath()
Files.walk(example).withCloseable { paths ->
    paths.filter { p ->
        def rel = example.relativize(p).toString()
        (rel.endsWith('.yaml') && !rel.contains('/')) || rel.startsWith('cassettes') || rel.startsWith('src')
    }.forEach { p ->
        def to = target.resolve(example.relativize(p).toString())
        if (Files.isDirectory(p)) {
            Files.createDirectories(to)
        } else {
            Files.createDirectories(to.parent)
            Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING)
        }
    }
}
return true
