package dev.resilienceharness.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The site the build rendered into target/site (maven-site-plugin, bound before the tests) has no broken internal
 * link: every relative {@code href} and {@code src} leads to a file the build generated, and every {@code #anchor}
 * to an element of that page with that id or name. It also holds every Markdown page and the plugin reference.
 */
class SiteLinksTest {

    static final Path SITE = Path.of("target", "site");
    private static final Pattern LINK = Pattern.compile("\\b(?:href|src)\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern ANCHOR = Pattern.compile("\\b(?:id|name)\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern ABSOLUTE = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:|^//");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkLeadsToAGeneratedFileAndAnchor() throws IOException {
        List<Path> pages = html();
        assertTrue(pages.size() > 40, "the site was rendered: " + pages.size() + " pages in " + SITE.toAbsolutePath());
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            String text = Files.readString(page, StandardCharsets.UTF_8);
            for (Matcher m = LINK.matcher(text); m.find(); ) {
                String link = m.group(1).replace("&amp;", "&");
                if (link.isEmpty() || ABSOLUTE.matcher(link).find()) {
                    continue;
                }
                checked++;
                String problem = problem(page, link);
                if (problem != null) {
                    broken.add(SITE.relativize(page) + ": " + link + ": " + problem);
                }
            }
        }
        assertEquals(List.of(), broken, "broken links");
        assertTrue(checked > 500, "links checked: " + checked);
    }

    @Test
    void everyPageAndTheGoalReferenceAreThere() throws IOException {
        try (Stream<Path> md = Files.walk(Sample.PAGES)) {
            for (Path p : md.filter(f -> f.toString().endsWith(".md")).toList()) {
                String html = Sample.PAGES.relativize(p).toString().replaceAll("\\.md$", ".html");
                assertTrue(Files.isRegularFile(SITE.resolve(html)), html + " was rendered from " + p);
            }
        }
        for (String goal : List.of("check", "check-budget", "check-determinism", "verify-cassettes", "scan-secrets",
                "report", "record", "serve", "explore", "drift", "merge", "report-aggregate", "help")) {
            assertTrue(Files.isRegularFile(SITE.resolve(goal + "-mojo.html")), goal + "-mojo.html");
        }
        String reference = Files.readString(SITE.resolve("plugin-info.html"), StandardCharsets.UTF_8);
        assertTrue(reference.contains("resilience:check"), "the plugin reference names its goals by prefix");
    }

    @Test
    void noPageLinksToMarkdown() throws IOException {
        for (Path page : html()) {
            Matcher m = LINK.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (m.find()) {
                String link = m.group(1);
                assertTrue(ABSOLUTE.matcher(link).find() || !link.matches("[^#?]*\\.md([#?].*)?"),
                        SITE.relativize(page) + " links to " + link + ", a Markdown file the site does not have");
            }
        }
    }

    /** Why {@code link} on {@code page} leads nowhere, or {@code null}. */
    private String problem(Path page, String link) throws IOException {
        String path = link;
        String fragment = null;
        int hash = path.indexOf('#');
        if (hash >= 0) {
            fragment = path.substring(hash + 1);
            path = path.substring(0, hash);
        }
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        Path target;
        if (path.isEmpty()) {
            target = page;
        } else {
            try {
                target = page.getParent().resolve(new URI(null, null, path, null).getPath()).normalize();
            } catch (URISyntaxException e) {
                return "not a usable path";
            }
            if (!target.startsWith(SITE.normalize())) {
                return "leads out of the site";
            }
            if (Files.isDirectory(target)) {
                target = target.resolve("index.html");
            }
            if (!Files.isRegularFile(target)) {
                return "no such file";
            }
        }
        if (fragment == null || fragment.isEmpty() || !target.toString().endsWith(".html")) {
            return null;
        }
        String id = java.net.URLDecoder.decode(fragment, StandardCharsets.UTF_8);
        return anchorsOf(target).contains(id) ? null : "no element with id '" + id + "' in " + SITE.relativize(target);
    }

    private Set<String> anchorsOf(Path page) throws IOException {
        Set<String> found = anchors.get(page);
        if (found == null) {
            found = new HashSet<>();
            Matcher m = ANCHOR.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (m.find()) {
                found.add(m.group(1));
            }
            anchors.put(page, found);
        }
        return found;
    }

    private static List<Path> html() throws IOException {
        try (Stream<Path> files = Files.walk(SITE)) {
            return files.filter(p -> p.toString().endsWith(".html")).sorted().toList();
        }
    }
}
