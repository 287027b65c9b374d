package dev.resilienceharness.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One fenced code block of a documentation page: its language, its text (the fence's indentation removed), where it
 * is, and whether the page marks it {@code <!-- fragment -->} on the line before its fence.
 */
record Sample(Path page, int line, String language, String text, boolean fragment) {

    /** The pages: every Markdown page of the site, and the README. */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    static final Path PAGES = ROOT.resolve("docs/src/site/markdown");

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");
    static final String FRAGMENT = "<!-- fragment -->";

    static List<Path> pages() {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.walk(PAGES)) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static List<Sample> all() {
        List<Sample> samples = new ArrayList<>();
        for (Path page : pages()) {
            samples.addAll(of(page));
        }
        return samples;
    }

    static List<Sample> of(Path page) {
        List<String> lines;
        try {
            lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            if (end == lines.size()) {
                throw new AssertionError(page + ":" + (i + 1) + ": a code block that never ends");
            }
            StringBuilder text = new StringBuilder();
            for (String l : lines.subList(i + 1, end)) {
                text.append(l.startsWith(indent) ? l.substring(indent.length()) : l.strip()).append('\n');
            }
            boolean fragment = i > 0 && lines.get(i - 1).strip().equals(FRAGMENT);
            samples.add(new Sample(page, i + 1, open.group(2), text.toString(), fragment));
            i = end;
        }
        return samples;
    }

    String where() {
        return ROOT.relativize(page) + ":" + line;
    }

    @Override
    public String toString() {
        return where() + " (" + (language.isEmpty() ? "plain" : language) + (fragment ? ", fragment" : "") + ")";
    }
}
