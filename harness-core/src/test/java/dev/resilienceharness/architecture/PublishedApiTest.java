package dev.resilienceharness.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * The published surface of harness-core, marked as JUnit marks its own: every public type says with apiguardian's
 * {@link API} whether a team may rely on it, and the types that are not {@code INTERNAL} are exactly those listed in
 * {@code published-api.txt}. A new public type, or one promoted, changes that list in the same commit, on purpose.
 */
class PublishedApiTest {

    private static final List<JavaClass> PUBLIC_TYPES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.resilienceharness").stream()
            .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC))
            .filter(c -> !c.getSimpleName().equals("package-info"))
            .toList();

    @Test
    void everyPublicTypeSaysWhetherTeamsMayRelyOnIt() {
        List<String> unmarked = new ArrayList<>();
        for (JavaClass type : PUBLIC_TYPES) {
            if (!type.isAnnotatedWith(API.class)) {
                unmarked.add(type.getName());
            }
        }
        assertEquals(List.of(), unmarked, "public types without @API(status = ...): mark each INTERNAL, or publish it"
                + " and list it in published-api.txt");
    }

    @Test
    void thePublishedSurfaceIsExactlyTheListedOne() throws IOException {
        TreeSet<String> published = new TreeSet<>();
        for (JavaClass type : PUBLIC_TYPES) {
            if (type.isAnnotatedWith(API.class)) {
                API api = type.getAnnotationOfType(API.class);
                if (api.status() != API.Status.INTERNAL) {
                    published.add(type.getName() + " " + api.status());
                }
            }
        }
        assertEquals(String.join("\n", listed()), String.join("\n", published),
                "the published surface changed: update src/test/resources/published-api.txt if that was meant");
    }

    @Test
    void theJavadocsFrontPageGroupsThePublishedPackagesApartFromTheInternals() throws IOException {
        TreeSet<String> stable = new TreeSet<>();
        TreeSet<String> other = new TreeSet<>();
        for (String line : listed()) {
            String name = line.substring(0, line.indexOf(' '));
            String pkg = name.substring(0, name.lastIndexOf('.'));
            (line.endsWith(" STABLE") ? stable : other).add(pkg);
        }
        other.removeAll(stable);
        String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        List<String> groups = new ArrayList<>();
        Matcher m = Pattern.compile("<packages>([^<]+)</packages>").matcher(pom);
        while (m.find()) {
            groups.add(m.group(1).strip());
        }
        assertEquals(List.of(String.join(":", stable), String.join(":", other), "dev.resilienceharness.*"), groups,
                "harness-core/pom.xml's javadoc groups: the packages of STABLE types, then those of the other"
                + " published types, then the internals");
    }

    private static TreeSet<String> listed() throws IOException {
        TreeSet<String> listed = new TreeSet<>();
        try (InputStream in = PublishedApiTest.class.getResourceAsStream("/published-api.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    listed.add(line.trim().replaceAll("\\s+", " "));
                }
            }
        }
        return listed;
    }
}
