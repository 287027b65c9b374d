package dev.resilienceharness.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's code samples are the files they say they are. */
class ReadmeSamplesTest {

    @Test
    void the_complete_loop_is_the_example_project_polite_loop_without_its_javadoc() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        int start = readme.indexOf("```java\npackage com.example.agent;") + "```java\n".length();
        String sample = readme.substring(start, readme.indexOf("```", start));
        String file = Files.readString(Path.of("..", "example", "src", "test", "java", "com", "example", "agent",
                "PoliteLoop.java"), StandardCharsets.UTF_8);
        assertEquals(file.replaceFirst("(?s)\n/\\*\\*.*?\\*/\n", "\n"), sample);
    }
}
