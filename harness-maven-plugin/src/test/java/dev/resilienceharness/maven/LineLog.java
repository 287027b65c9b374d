package dev.resilienceharness.maven;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.maven.plugin.logging.Log;

/**
 * A log that turns every call into one {@link #line}: its level ({@code debug}, {@code info}, {@code warn},
 * {@code error}) and its text, a throwable's stack trace after the text. Debug lines are made only when
 * {@link #isDebugEnabled()}.
 */
abstract class LineLog implements Log {

    /** Takes one logged line. */
    abstract void line(String level, String text);

    static String stackTrace(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        return sw.toString();
    }

    private static String text(CharSequence content, Throwable error) {
        if (error == null) {
            return String.valueOf(content);
        }
        return (content == null ? "" : content + System.lineSeparator()) + stackTrace(error);
    }

    @Override
    public void debug(CharSequence content) {
        debug(content, null);
    }

    @Override
    public void debug(CharSequence content, Throwable error) {
        if (isDebugEnabled()) {
            line("debug", text(content, error));
        }
    }

    @Override
    public void debug(Throwable error) {
        debug(null, error);
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public void info(CharSequence content) {
        line("info", text(content, null));
    }

    @Override
    public void info(CharSequence content, Throwable error) {
        line("info", text(content, error));
    }

    @Override
    public void info(Throwable error) {
        info(null, error);
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public void warn(CharSequence content) {
        line("warn", text(content, null));
    }

    @Override
    public void warn(CharSequence content, Throwable error) {
        line("warn", text(content, error));
    }

    @Override
    public void warn(Throwable error) {
        warn(null, error);
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    public void error(CharSequence content) {
        line("error", text(content, null));
    }

    @Override
    public void error(CharSequence content, Throwable error) {
        line("error", text(content, error));
    }

    @Override
    public void error(Throwable error) {
        error(null, error);
    }
}
