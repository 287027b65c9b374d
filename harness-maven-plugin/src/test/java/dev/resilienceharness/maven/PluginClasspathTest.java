package dev.resilienceharness.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The plugin's runtime classpath, as Maven reads it from the plugin descriptor the build generated: what every goal's
 * class realm and the check's own JVM load.
 */
class PluginClasspathTest {

    private static final Path DESCRIPTOR = Path.of("target/classes/META-INF/maven/plugin.xml");

    @Test
    void the_plugin_carries_core_and_its_libraries_without_the_junit_platform() throws Exception {
        assertTrue(Files.isRegularFile(DESCRIPTOR), DESCRIPTOR + " is made by the build before the tests run");
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element root = factory.newDocumentBuilder().parse(DESCRIPTOR.toFile()).getDocumentElement();
        List<String> artifacts = new ArrayList<>();
        NodeList dependencies = root.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            artifacts.add(text(d, "groupId") + ":" + text(d, "artifactId"));
        }
        // The goals check scenarios with the engine's own code; only core's test engine needs the JUnit Platform.
        assertEquals(List.of("dev.resilienceharness:harness-core",
                "tools.jackson.core:jackson-databind",
                "com.fasterxml.jackson.core:jackson-annotations",
                "tools.jackson.core:jackson-core",
                "tools.jackson.dataformat:jackson-dataformat-yaml",
                "org.snakeyaml:snakeyaml-engine",
                "com.networknt:json-schema-validator",
                "com.ethlo.time:itu",
                // RE2/J (no dependencies of its own): every regex a cassette or yaml brings runs in linear time.
                "com.google.re2j:re2j",
                // Jackson's TOML reader, for a team's .gitleaks.toml: the Jackson family already here, nothing new.
                "tools.jackson.dataformat:jackson-dataformat-toml"), artifacts);
    }

    private static String text(Element parent, String tag) {
        return parent.getElementsByTagName(tag).item(0).getTextContent().trim();
    }
}
