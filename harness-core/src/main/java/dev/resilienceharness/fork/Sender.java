package dev.resilienceharness.fork;

import dev.resilienceharness.run.RunLog;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/** The forked JVM's log: each line goes to the JVM that started it as soon as it is logged ({@link ForkProtocol}). */
final class Sender implements RunLog {

    private final PrintStream out;
    private volatile boolean debug;

    Sender(PrintStream out) {
        this.out = out;
    }

    /** Sends one line of {@code kind}. */
    synchronized void line(String kind, String text) {
        out.println(ForkProtocol.line(kind, String.valueOf(text)));
    }

    void debug(boolean enabled) {
        debug = enabled;
    }

    /**
     * Sends the verdict of a JVM out of memory for {@code reason}; when even that line cannot be made,
     * {@code madeEarlier}, written as it is (a write that needs no heap).
     */
    synchronized void outOfMemory(String reason, byte[] madeEarlier) {
        try {
            line("fault", ForkProtocol.outOfMemoryMessage(reason));
        } catch (OutOfMemoryError again) {
            out.write(madeEarlier, 0, madeEarlier.length);
            out.flush();
        }
    }

    static String stackTrace(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        return sw.toString();
    }

    @Override
    public boolean isDebugEnabled() {
        return debug;
    }

    @Override
    public void debug(String line) {
        if (debug) {
            line("debug", line);
        }
    }

    @Override
    public void info(String line) {
        line("info", line);
    }

    @Override
    public void warn(String line) {
        line("warn", line);
    }

    @Override
    public void error(String line) {
        line("error", line);
    }
}
