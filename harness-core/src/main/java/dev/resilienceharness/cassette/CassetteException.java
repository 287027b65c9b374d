package dev.resilienceharness.cassette;

import java.nio.file.Path;

/** A cassette file that cannot be used: names the file (and line and column where known) and what to do. */
public final class CassetteException extends Exception {

    private final Path file;
    private final int line;
    private final int column;

    public CassetteException(Path file, int line, int column, String detail) {
        super(file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "") + ": " + detail);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    public CassetteException(Path file, String detail) {
        this(file, 0, 0, detail);
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
