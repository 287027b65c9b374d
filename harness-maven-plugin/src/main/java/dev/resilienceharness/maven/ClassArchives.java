package dev.resilienceharness.maven;

import dev.resilienceharness.incremental.InputDigest;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.maven.plugin.logging.Log;

/** The folder of the forked check's class archives ({@link ClassArchive}): which one a JVM gets, how many are kept. */
final class ClassArchives {

    /** Where archives live, under the local repository. */
    static final String FOLDER = "dev/resilienceharness/class-archives";

    /** How many archives are kept: one per JDK and plugin version a machine checks with, at most. */
    static final int KEPT = 4;

    /** A temporary file this old was left by a build that was killed. */
    private static final Duration ABANDONED = Duration.ofHours(1);

    private ClassArchives() {
    }

    /**
     * The archive for a JVM started as {@code java} with {@code jvmArgs} and {@code classpath}, or {@code null} when
     * the options choose their own class sharing, an element of the classpath is not a jar that can be read, or the
     * folder's path holds the path separator.
     */
    static ClassArchive of(Path folder, Path java, List<String> jvmArgs, List<String> classpath) {
        if (JvmOptions.anyNames(jvmArgs, "-Xshare", "SharedArchiveFile", "ArchiveClassesAtExit", "UseSharedSpaces")) {
            return null;
        }
        if (folder.toAbsolutePath().toString().contains(File.pathSeparator)) {
            // HotSpot reads -XX:SharedArchiveFile as a list of files separated so: such a folder cannot be named.
            return null;
        }
        // The digest of the check record's inputs, over these fields instead.
        InputDigest digest = new InputDigest().field(java.toAbsolutePath().normalize().toString())
                .field(System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.version"))
                .field(String.join(" ", jvmArgs));
        try {
            digest.field(stamp(java.toRealPath()));
            for (String element : classpath) {
                Path p = Path.of(element);
                if (!Files.isRegularFile(p)) {
                    // HotSpot archives classes from jars only: a folder of classes fails the dump.
                    return null;
                }
                digest.field(stamp(p.toAbsolutePath().normalize()));
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new ClassArchive(folder, digest.hex().substring(0, 16));
    }

    /** A file as HotSpot tells whether it is the one an archive was made with: its path, size and time. */
    private static String stamp(Path file) throws IOException {
        return file + " " + Files.size(file) + " " + Files.getLastModifiedTime(file).toMillis();
    }

    /** Keeps the {@value #KEPT} newest archives and deletes temporary files left by killed builds. */
    static void prune(Path folder, Log log) throws IOException {
        List<Path> archives = new ArrayList<>();
        Instant abandoned = Instant.now().minus(ABANDONED);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.startsWith("check-") && name.endsWith(".jsa")) {
                    archives.add(p);
                } else if (name.startsWith(".check-") && name.endsWith(".tmp")
                        && Files.getLastModifiedTime(p).toInstant().isBefore(abandoned)) {
                    deleteQuietly(p, log);
                }
            }
        }
        archives.sort(Comparator.comparing(ClassArchives::modified).reversed());
        for (Path old : archives.subList(Math.min(KEPT, archives.size()), archives.size())) {
            deleteQuietly(old, log);
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    static void deleteQuietly(Path p, Log log) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            log.debug(p + ": cannot delete (" + e.getMessage() + ")");
        }
    }
}
