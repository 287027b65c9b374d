package dev.resilienceharness.maven;

import dev.resilienceharness.fork.ForkProtocol;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.Log;

/**
 * Where the forked JVM's lines go: the check's own ({@link ForkProtocol}) to Maven's log at their level, and the JVM's
 * own output to the log too, or, while held, into a list until the check's first line opens it.
 */
final class ForkOutput {

    /** A line held back, and whether it goes to the debug log. */
    private record Held(String line, boolean debug) {
    }

    private final Log log;
    private boolean holding;
    private boolean opened;
    private final List<Held> held = new ArrayList<>();

    ForkOutput(Log log, boolean hold) {
        this.log = log;
        this.holding = hold;
    }

    synchronized void info(String line) {
        if (holding) {
            held.add(new Held(line, false));
        } else {
            log.info(line);
        }
    }

    synchronized void debug(String line) {
        if (holding) {
            held.add(new Held(line, true));
        } else {
            log.debug(line);
        }
    }

    /** The check has begun: what was held is logged, and the rest goes straight on. */
    synchronized void open() {
        if (!opened) {
            opened = true;
            holding = false;
            held.forEach(h -> {
                if (h.debug()) {
                    log.debug(h.line());
                } else {
                    log.info(h.line());
                }
            });
            held.clear();
        }
    }

    synchronized boolean opened() {
        return opened;
    }

    /** What was held and never logged. */
    synchronized List<String> held() {
        return held.stream().map(Held::line).toList();
    }

    /** Logs the forked JVM's lines until its verdict, which it returns ({@code null} when none came). */
    String[] read(Process process) throws IOException {
        String[] end = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                int space = line.indexOf(' ');
                if (!line.startsWith(ForkProtocol.MARK) || space < 0) {
                    info(line);
                    continue;
                }
                // The check's own line: its JVM has started and runs the check.
                open();
                String kind = line.substring(ForkProtocol.MARK.length(), space);
                String text = ForkProtocol.unescape(line.substring(space + 1));
                switch (kind) {
                    case "debug" -> log.debug(text);
                    case "info" -> log.info(text);
                    case "warn" -> log.warn(text);
                    case "error" -> log.error(text);
                    case "ok", "failure", "fault" -> end = new String[] {kind, text};
                    case "began" -> {
                    }
                    default -> log.info(line);
                }
            }
        }
        return end;
    }

    /** Logs the forked JVM's standard error as it comes. */
    void drain(Process process) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                // SLF4J's note that it has no binding, in a JVM without Maven's: nothing the user needs to see.
                if (line.startsWith("SLF4J: ")) {
                    debug(line);
                } else {
                    info(line);
                }
            }
        } catch (IOException e) {
            log.debug("cannot read the forked JVM's standard error: " + e.getMessage());
        }
    }
}
