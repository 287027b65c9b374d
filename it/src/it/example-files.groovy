// Shared by builds whose prebuild.groovy needs files of the bundled example project, so that they test the loops
// and cassettes the example ships rather than copies that drift:
//     evaluate(new File(itSources, 'example-files.groovy'))
//     copyFromExample('src/test/java/com/example/agent/PoliteLoop.java')
// and by builds that reuse another build's own files, such as its cassettes:
//     copyFromBuild('team-loop', 'cassettes')
import java.nio.file.Files
import java.nio.file.StandardCopyOption

exampleDir = new File(itSources, '../../../example').canonicalFile.toPath()
copyFromExample = { String from, String to = from ->
    copyPath(exampleDir.resolve(from), basedir.toPath().resolve(to))
}
copyFromBuild = { String build, String from, String to = from ->
    copyPath(new File(itSources, build).toPath().resolve(from), basedir.toPath().resolve(to))
}
copyPath = { source, target ->
    if (Files.isDirectory(source)) {
        Files.walk(source).withCloseable { paths ->
            paths.filter { Files.isRegularFile(it) }.forEach { p ->
                def copy = target.resolve(source.relativize(p).toString())
                Files.createDirectories(copy.parent)
                Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING)
            }
        }
    } else {
        Files.createDirectories(target.parent)
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING)
    }
}
