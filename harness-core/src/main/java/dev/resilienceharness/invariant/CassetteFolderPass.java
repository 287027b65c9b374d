package dev.resilienceharness.invariant;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One reading of a cassette folder for invariants 6 and 7: each file is read once, on all cores, and its bytes go
 * to every check, so a full check reads the folder once. Files are not kept, so memory stays flat.
 */
public final class CassetteFolderPass {

    /**
     * Looks at each file as the pass reads it; called from several threads at once. The checks are
     * {@link CassetteIntegrity.Check} and {@link SecretsInCassettes.Scan}.
     */
    public interface FileCheck {

        /** A file and its bytes. */
        void read(Path file, byte[] bytes);

        /** A file that could not be read (a symlink out of the folder, too large, gone). */
        void unreadable(Path file, CassetteException e);
    }

    private CassetteFolderPass() {
    }

    /** Every cassette file of {@code config}, sorted by name. */
    public static List<Path> files(HarnessConfig config) throws IOException {
        return CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths())).files();
    }

    /** Reads each of {@code files} once and hands it to every check. */
    public static void run(HarnessConfig config, List<Path> files, FileCheck... checks) {
        CassetteReader reader = new CassetteReader(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        IntStream.range(0, files.size()).parallel().forEach(i -> {
            Path file = files.get(i);
            byte[] bytes;
            try {
                bytes = reader.readBytes(file);
            } catch (CassetteException e) {
                for (FileCheck check : checks) {
                    check.unreadable(file, e);
                }
                return;
            }
            for (FileCheck check : checks) {
                check.read(file, bytes);
            }
        });
    }
}
