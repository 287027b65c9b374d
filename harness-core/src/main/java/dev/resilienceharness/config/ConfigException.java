package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A {@code resilience.yaml} that cannot be used: names the file, line and column, the key, and what was
 * expected. Its message is the whole sentence a user sees.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ConfigException extends Exception {

    private final Path file;
    private final int line;
    private final int column;
    private final String key;

    /**
     * @param file   the yaml file
     * @param line   1-based line, or 0 when unknown
     * @param column 1-based column, or 0 when unknown
     * @param key    the dotted key path (e.g. {@code scenarios[2].policy.max_attempts}), or {@code null}
     * @param detail what is wrong and what to do
     */
    public ConfigException(Path file, int line, int column, String key, String detail) {
        super(format(file, line, column, key, detail));
        this.file = file;
        this.line = line;
        this.column = column;
        this.key = key;
    }

    private static String format(Path file, int line, int column, String key, String detail) {
        StringBuilder sb = new StringBuilder().append(file);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        sb.append(": ");
        if (key != null && !key.isEmpty()) {
            sb.append(key).append(": ");
        }
        return sb.append(detail).toString();
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

    public String key() {
        return key;
    }
}
