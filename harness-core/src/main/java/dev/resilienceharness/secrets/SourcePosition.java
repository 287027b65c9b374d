package dev.resilienceharness.secrets;

/**
 * Turns byte offsets into UTF-8 content into 1-based lines and columns, the column counted in UTF-16 code
 * units (what editors and SARIF's default {@code columnKind} show). Offsets asked for in increasing order are
 * answered by continuing from the previous one, so positioning every finding of a file reads it once.
 */
final class SourcePosition {

    private final byte[] content;
    private int offset;
    private int line = 1;
    private int column = 1;

    SourcePosition(byte[] content) {
        this.content = content;
    }

    /** Moves to {@code byteOffset} (clamped to the content); then {@link #line()} and {@link #column()} hold. */
    SourcePosition moveTo(long byteOffset) {
        int target = (int) Math.max(0, Math.min(byteOffset, content.length));
        if (target < offset) {
            offset = 0;
            line = 1;
            column = 1;
        }
        while (offset < target) {
            int b = content[offset] & 0xFF;
            if (b == '\n') {
                line++;
                column = 1;
            } else if (b < 0x80 || b >= 0xC0 && b < 0xF0) {
                // an ASCII character or the lead byte of a character in the Basic Multilingual Plane
                column++;
            } else if (b >= 0xF0) {
                // a four-byte sequence is a supplementary character: two UTF-16 code units
                column += 2;
            }
            offset++;
        }
        return this;
    }

    int line() {
        return line;
    }

    int column() {
        return column;
    }
}
