package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tool hooks use langchain4j's AiServices module ({@code dev.langchain4j:langchain4j}); a team with
 * langchain4j-open-ai alone still loads {@link HarnessLangChain4j}, because its tool methods hand over to
 * {@link GatedTools}, which the JVM links only when they are called.
 */
class GatedToolsTest {

    @Test
    void theAdapterLinksWithoutLangchain4jsAiServicesModuleAndTheToolHooksDoNot() throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().matches("langchain4j-\\d.*\\.jar")) {
                left.add(entry);
                continue;
            }
            urls.add(Path.of(entry).toUri().toURL());
        }
        assertEquals(1, left.size(), "the AiServices module is on the test class path once: " + left);
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class,
                    () -> Class.forName("dev.langchain4j.service.AiServices", false, loader));
            // Initialising links the class: the verifier checks every method's body.
            Class<?> adapter = Class.forName(HarnessLangChain4j.class.getName(), true, loader);
            assertEquals(loader, adapter.getClassLoader());
            NoClassDefFoundError e = assertThrows(NoClassDefFoundError.class,
                    () -> Class.forName(GatedTools.class.getName(), true, loader));
            assertTrue(e.getMessage().contains("dev/langchain4j/service"), e.getMessage());
        }
    }
}
