package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ChatClient hook uses Spring AI's {@code spring-ai-client-chat}; code with the OpenAI module alone still loads
 * {@link HarnessSpringAi}.
 */
class ChatClientOptionalTest {

    @Test
    void theAdapterLinksWithoutSpringAisChatClientModule() throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().startsWith("spring-ai-client-chat-")) {
                left.add(entry);
                continue;
            }
            urls.add(Path.of(entry).toUri().toURL());
        }
        assertEquals(1, left.size(), "the ChatClient module is on the test class path once: " + left);
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class,
                    () -> Class.forName("org.springframework.ai.chat.client.ChatClient", false, loader));
            // Initialising links the class: the verifier checks every method's body.
            assertEquals(loader, Class.forName(HarnessSpringAi.class.getName(), true, loader).getClassLoader());
        }
    }
}
