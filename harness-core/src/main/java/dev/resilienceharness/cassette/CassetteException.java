package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A cassette file that cannot be used: names the file (and line and column where known), what is wrong with it,
 * and what to do. The message is {@code <file>[:line[:column]]: <problem>. <hint>}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteException extends Exception {

    private final Path file;
    private final int line;
    private final int column;
    private final String problem;
    private final String hint;

    /**
     * @param line    1-based line, or 0 when unknown
     * @param column  1-based column, or 0 when unknown
     * @param problem what is wrong, one sentence without a final period
     * @param hint    what to do next, or {@code null}
     */
    public CassetteException(Path file, int line, int column, String problem, String hint) {
        super(location(file, line, column) + ": " + problem + (hint == null ? "" : ". " + hint));
        this.file = file;
        this.line = Math.max(line, 0);
        this.column = line > 0 ? Math.max(column, 0) : 0;
        this.problem = problem;
        this.hint = hint;
    }

    public CassetteException(Path file, String problem, String hint) {
        this(file, 0, 0, problem, hint);
    }

    private static String location(Path file, int line, int column) {
        return file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "");
    }

    public Path file() {
        return file;
    }

    /** 1-based, or 0 when the problem has no single place in the file. */
    public int line() {
        return line;
    }

    /** 1-based, or 0 when unknown. */
    public int column() {
        return column;
    }

    /** {@code <file>}, {@code <file>:<line>} or {@code <file>:<line>:<column>}. */
    public String location() {
        return location(file, line, column);
    }

    /** What is wrong, without the location and the hint. */
    public String problem() {
        return problem;
    }

    /** What to do next, or {@code null}. */
    public String hint() {
        return hint;
    }
}
