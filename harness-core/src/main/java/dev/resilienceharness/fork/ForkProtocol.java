package dev.resilienceharness.fork;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * How the forked check's JVM talks to the one that started it: each line it sends on its standard output starts with
 * {@link #MARK}, followed by the kind ({@code began}, {@code debug}, {@code info}, {@code warn}, {@code error}, or the
 * verdict: {@code ok}, {@code failure}, {@code fault}), a space and the text, escaped onto one line; any other line is
 * output of its own.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ForkProtocol {

    /** What starts each line of the check's own. */
    public static final String MARK = "\u0001resilience:";

    /**
     * The forked JVM's options unless {@code resilience.fork.jvmArgs} says otherwise: the quick compiler only; the
     * parallel collector, whose collections use both cores, with a young generation of 96 MB whose survivors go
     * straight to the old generation, and an old one at most a quarter larger than what is live.
     */
    public static final String DEFAULT_JVM_ARGS = "-XX:TieredStopAtLevel=1 -XX:+UseParallelGC -Xmn96m"
            + " -XX:MaxTenuringThreshold=0 -XX:MaxHeapFreeRatio=20 -XX:MinHeapFreeRatio=10";

    private ForkProtocol() {
    }

    /** The line that sends {@code text} at {@code level}, without its line break. */
    public static String line(String level, String text) {
        return MARK + level + " " + escape(text);
    }

    /** What the check says when its JVM ran out of memory for {@code reason}. */
    public static String outOfMemoryMessage(String reason) {
        return "resilience:check ran out of memory in its JVM (" + reason + "); give it more with"
                + " -Dresilience.fork.jvmArgs, such as \"" + DEFAULT_JVM_ARGS + " -Xmx2g\"";
    }

    /** A text on one line: backslashes, line feeds and carriage returns escaped. */
    public static String escape(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The text {@link #escape} put on one line. */
    public static String unescape(String line) {
        StringBuilder sb = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(++i);
                sb.append(next == 'n' ? '\n' : next == 'r' ? '\r' : next);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
