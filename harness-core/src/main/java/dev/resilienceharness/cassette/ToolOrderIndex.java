package dev.resilienceharness.cassette;

import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.json.VolatilePaths;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cassettes of a folder by the {@link ToolOrder#fingerprint tool-order-free fingerprint} of their requests: the
 * second look-up, made when a request's own fingerprint names no file. Of two cassettes whose requests differ only
 * in the order of their tools, the one whose file name sorts first answers. Only cassettes named by their own
 * fingerprint are indexed (a misnamed file answers nothing), and only those with two tools or more. Thread-safe.
 */
final class ToolOrderIndex {

    private final Map<String, Path> byKey = new ConcurrentHashMap<>();

    private ToolOrderIndex() {
    }

    /**
     * Reads every one of {@code files} once (on all cores); a file that cannot be read is left out, as cassette
     * integrity reports it.
     */
    static ToolOrderIndex of(List<Path> files, CassetteReader reader, VolatilePaths volatilePaths) {
        String[] keys = new String[files.size()];
        Indices.forEach(files.size(), i -> {
            Path file = files.get(i);
            try {
                Cassette c = reader.read(file);
                if (file.getFileName().toString().equals(c.fingerprint() + ".json")) {
                    keys[i] = ToolOrder.fingerprint(c.request(), volatilePaths);
                }
            } catch (CassetteException | IllegalArgumentException e) {
                // Not indexed: a broken file answers nothing, in this look-up as in the exact one.
            }
        });
        ToolOrderIndex index = new ToolOrderIndex();
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                index.add(keys[i], files.get(i));
            }
        }
        return index;
    }

    /** The cassette recorded under the tool-order-free fingerprint {@code key}, or {@code null}. */
    Path get(String key) {
        return byKey.get(key);
    }

    /** Indexes {@code file} under {@code key}, unless a file whose name sorts before it is already there. */
    void add(String key, Path file) {
        byKey.merge(key, file, (before, now) ->
                before.getFileName().toString().compareTo(now.getFileName().toString()) <= 0 ? before : now);
    }
}
