package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * JUnit XML (the Ant/surefire dialect CI servers read): one {@code <testsuite name="resilience">}, one
 * {@code <testcase classname="resilience.<scenario>" name="<invariant>">} per scenario and checked invariant,
 * and one test case each for the cassette check and the secret scan under {@code classname="resilience"}. A
 * failing case carries every violation line. Written by hand so that characters XML 1.0 forbids can be
 * replaced visibly instead of producing a file no parser reads.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class JUnitXmlReport {

    /** The suite name and the class name prefix. */
    public static final String SUITE = "resilience";

    private JUnitXmlReport() {
    }

    private record Case(String classname, String name, List<String> failures, String output) {
    }

    /**
     * The XML document for {@code report}.
     *
     * @param checked the invariants the run checked; a scenario invariant with violations gets its test case
     *                even when it is not in this set, so no failure is lost
     */
    public static String toXml(RunReport report, Set<Invariant> checked) {
        List<Case> cases = new ArrayList<>();
        for (ScenarioReport s : report.scenarios()) {
            Set<Invariant> shown = EnumSet.noneOf(Invariant.class);
            for (Invariant i : checked) {
                if (i != Invariant.CASSETTES && i != Invariant.SECRETS) {
                    shown.add(i);
                }
            }
            s.violations().forEach(v -> shown.add(v.invariant()));
            for (Invariant i : shown) {
                List<String> lines = s.violations().stream().filter(v -> v.invariant() == i).map(Violation::line)
                        .toList();
                cases.add(new Case(SUITE + "." + s.name(), i.id(), lines, null));
            }
        }
        RunReport.Cassettes cassettes = report.cassettes();
        if (checked.contains(Invariant.CASSETTES) || !cassettes.violations().isEmpty()) {
            StringBuilder out = new StringBuilder(cassettes.checked() + " cassette files checked");
            cassettes.warnings().forEach(w -> out.append('\n').append("warning: ").append(w));
            cases.add(new Case(SUITE, Invariant.CASSETTES.id(),
                    cassettes.violations().stream().map(Violation::line).toList(), out.toString()));
        }
        RunReport.Secrets secrets = report.secrets();
        if (checked.contains(Invariant.SECRETS) || !secrets.findings().isEmpty()) {
            cases.add(new Case(SUITE, Invariant.SECRETS.id(), secrets.findings().stream()
                    .map(f -> f.location() + " [" + f.rule() + "] " + f.masked() + " at " + f.jsonPath()
                            + " (fingerprint " + f.fingerprint() + ")")
                    .toList(), secrets.files() + " cassette files scanned"));
        }
        return write(cases);
    }

    private static String write(List<Case> cases) {
        long failures = cases.stream().filter(c -> !c.failures().isEmpty()).count();
        StringBuilder x = new StringBuilder(256 + cases.size() * 128);
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append("<testsuite name=\"").append(SUITE).append("\" tests=\"").append(cases.size())
                .append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"0\" time=\"0\">\n");
        for (Case c : cases) {
            x.append("  <testcase classname=\"");
            escape(c.classname(), true, x);
            x.append("\" name=\"");
            escape(c.name(), true, x);
            x.append("\" time=\"0\"");
            if (c.failures().isEmpty() && c.output() == null) {
                x.append("/>\n");
                continue;
            }
            x.append(">\n");
            if (!c.failures().isEmpty()) {
                String message = c.failures().size() == 1 ? c.failures().get(0)
                        : c.failures().size() + " violations of " + c.name() + "; first: " + c.failures().get(0);
                x.append("    <failure message=\"");
                escape(message, true, x);
                x.append("\" type=\"").append(SUITE).append('.');
                escape(c.name(), true, x);
                x.append("\">");
                escape(String.join("\n", c.failures()), false, x);
                x.append("</failure>\n");
            }
            if (c.output() != null) {
                x.append("    <system-out>");
                escape(c.output(), false, x);
                x.append("</system-out>\n");
            }
            x.append("  </testcase>\n");
        }
        x.append("</testsuite>\n");
        return x.toString();
    }

    /**
     * Appends {@code s} escaped for XML 1.0 text or a double-quoted attribute. Characters XML 1.0 cannot hold
     * at all (most C0 controls, U+FFFE, U+FFFF, unpaired surrogates) become a visible {@code \}{@code uXXXX};
     * in attributes, tab and line breaks become character references so attribute normalisation keeps them.
     */
    static void escape(String s, boolean attribute, StringBuilder out) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append(attribute ? "&quot;" : "\"");
                case '\n' -> out.append(attribute ? "&#10;" : "\n");
                case '\r' -> out.append("&#13;");
                case '\t' -> out.append(attribute ? "&#9;" : "\t");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || c == 0xFFFE || c == 0xFFFF || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }
}
