package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.transport.Reply;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The recorded answers of a rehearsal's ops, read from their cassettes when a run needs them and kept in a bounded
 * cache of the most recently used, so that a config with thousands of ops never holds all its cassettes at once.
 * Thread-safe.
 */
final class RecordedReplies {

    /** How many answers are kept: far more than the ops of the scenarios running at one time. */
    static final int CAPACITY = 1024;

    /** A cassette that read well when the rehearsal was prepared no longer does. */
    static final class Unreadable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unreadable(String op, CassetteException e) {
            super("the cassette for op '" + op + "' changed during the build and cannot be read: " + e.getMessage(),
                    e);
        }
    }

    private final CassetteReader reader;
    private final Map<Path, Reply> recent;

    RecordedReplies(CassetteReader reader, int capacity) {
        this.reader = reader;
        this.recent = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Path, Reply> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Keeps an answer just read, so that the first runs need not read it again. */
    void offer(Path file, Reply reply) {
        synchronized (recent) {
            recent.put(file, reply);
        }
    }

    /** The recorded answer for {@code exchange}'s op, read from its cassette unless it is at hand. */
    Reply reply(OpExchange exchange) {
        synchronized (recent) {
            Reply kept = recent.get(exchange.file());
            if (kept != null) {
                return kept;
            }
        }
        Reply read;
        try {
            read = reader.read(exchange.file()).reply();
        } catch (CassetteException e) {
            throw new Unreadable(exchange.op(), e);
        }
        synchronized (recent) {
            Reply raced = recent.putIfAbsent(exchange.file(), read);
            return raced != null ? raced : read;
        }
    }
}
