package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.transport.Reply;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The answers of cassettes a pass over the folder has already read, parsed and verified (the check goal's integrity
 * pass), handed to the runs that follow so that they need not read and parse those files again. At most
 * {@code capacityBytes} bytes of cassettes are kept; what does not fit is read again by the run that needs it. Each
 * answer is taken once: from then on the rehearsal's own cache holds it. Thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class KeptAnswers {

    /** How many bytes of cassettes are kept by default: {@value}, as for a rehearsal's own cache. */
    public static final long DEFAULT_BYTES = RecordedAnswers.CAPACITY_BYTES;

    /** A kept answer, its timing samples and streamed events, and the size of the file it came from. */
    record Kept(Reply reply, java.util.List<dev.resilienceharness.cassette.Timing> samples,
            dev.resilienceharness.cassette.CassetteStream stream, long bytes) {
    }

    private final long capacityBytes;
    private final Map<Path, Kept> kept = new HashMap<>();
    private long bytes;

    /** Keeps answers from up to {@code capacityBytes} bytes of cassettes. */
    public KeptAnswers(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    /**
     * Keeps the answer of {@code cassette}, read from {@code size} bytes, unless that would pass the bound; the first
     * offered are the ones kept.
     */
    public void offer(Cassette cassette, long size) {
        synchronized (kept) {
            if (bytes + size > capacityBytes || kept.containsKey(cassette.file())) {
                return;
            }
            kept.put(cassette.file(), new Kept(cassette.reply(), RecordedAnswers.samples(cassette), cassette.stream(),
                    size));
            bytes += size;
        }
    }

    /** The answer kept for {@code file}, which is no longer kept here, or {@code null}. */
    Kept take(Path file) {
        synchronized (kept) {
            Kept k = kept.remove(file);
            if (k != null) {
                bytes -= k.bytes();
            }
            return k;
        }
    }

    /** How many answers are kept now. */
    public int size() {
        synchronized (kept) {
            return kept.size();
        }
    }
}
