// The example's own PoliteLoop, which GreetingLoop runs, and team-loop's cassettes, whose requests are these ops'.
import java.nio.file.Files
import java.nio.file.StandardCopyOption

evaluate(new File(itSources, 'example-files.groovy'))
copyFromExample('src/test/java/com/example/agent/PoliteLoop.java')
def cassettes = new File(itSources, 'team-loop/cassettes').toPath()
Files.createDirectories(basedir.toPath().resolve('cassettes'))
Files.list(cassettes).withCloseable { files ->
    files.forEach { Files.copy(it, basedir.toPath().resolve('cassettes').resolve(it.fileName.toString()),
            StandardCopyOption.REPLACE_EXISTING) }
}
return true
