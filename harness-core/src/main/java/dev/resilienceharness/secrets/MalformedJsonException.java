package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A file the secrets engine had to read as JSON but could not: a cassette that does not parse, or a baseline
 * file of the wrong shape. The message names the file, line and column and says what to do; it never quotes the
 * file's content, which may hold the very secret being looked for.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class MalformedJsonException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;
    private final int column;

    /**
     * @param file   the file
     * @param line   1-based line, or 0 when unknown
     * @param column 1-based column, or 0 when unknown
     * @param detail what is wrong and what to do, without any of the file's content
     */
    public MalformedJsonException(Path file, int line, int column, String detail) {
        super(format(file, line, column, detail));
        this.file = file;
        this.line = line;
        this.column = column;
    }

    private static String format(Path file, int line, int column, String detail) {
        StringBuilder sb = new StringBuilder().append(file);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        return sb.append(": ").append(detail).toString();
    }

    public Path file() {
        return file;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
