package dev.resilienceharness.maven;

import dev.resilienceharness.incremental.InputDigest;
import java.io.File;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.maven.plugin.logging.Log;

/**
 * The class-data archive of the forked check's JVM (HotSpot's dynamic CDS archive, JEP 350): the classes a check loads
 * from the plugin's jars, parsed and verified once, then mapped into every later check's JVM instead of being loaded
 * again. A cold full check loads about 800 classes from jars; with the archive its JVM takes about 0.2 s less.
 *
 * <p>An archive belongs to one {@code java}, one set of JVM options and one classpath, each jar with its size and
 * modification time: a digest of them all names its file, in a folder of the local repository (so that a CI cache of
 * {@code ~/.m2/repository} keeps it across clean clones). The first check with a new digest makes it: its JVM writes
 * the archive as it exits (up to 0.3 s more, once), to a temporary file that is renamed into place only when the check
 * gave its verdict, so that no later JVM maps a half-written one. At most {@value #KEPT} archives are kept, the most
 * recently made.
 *
 * <p>A JVM that cannot use or make an archive (a JDK without its own base archive, a damaged file) is not the build's
 * problem: {@link ForkedCheck#launch} starts the check again without it, and the archive is deleted, or the digest
 * marked as one that cannot have an archive. Options that choose their own class sharing ({@code -Xshare},
 * {@code SharedArchiveFile}, {@code ArchiveClassesAtExit}, {@code UseSharedSpaces}) get no archive.
 */
final class ClassArchive {

    /** Where archives live, under the local repository. */
    static final String FOLDER = "dev/resilienceharness/class-archives";

    /** How many archives are kept: one per JDK and plugin version a machine checks with, at most. */
    static final int KEPT = 4;

    /** A temporary file this old was left by a build that was killed. */
    private static final Duration ABANDONED = Duration.ofHours(1);

    /** The JVM says nothing about sharing: a refused archive is no news to the user. */
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    /** Where a JVM that crashes on a damaged archive writes its error report, instead of the project's folder. */
    private static final String CRASH_REPORT = ".check-crash-";

    private final Path folder;
    private final Path file;
    private final Path unusable;
    /** The archive the JVM started with {@link #options} writes, or {@code null} when it maps {@link #file}. */
    private Path making;

    private ClassArchive(Path folder, String digest) {
        this.folder = folder;
        this.file = folder.resolve("check-" + digest + ".jsa");
        this.unusable = folder.resolve("check-" + digest + ".unusable");
    }

    /**
     * The archive for a JVM started as {@code java} with {@code jvmArgs} and {@code classpath}, or {@code null} when
     * the options choose their own class sharing, an element of the classpath is not a jar that can be read, or the
     * folder's path holds the path separator.
     */
    static ClassArchive of(Path folder, Path java, List<String> jvmArgs, List<String> classpath) {
        if (ForkedCheck.anyNames(jvmArgs, "-Xshare", "SharedArchiveFile", "ArchiveClassesAtExit", "UseSharedSpaces")) {
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

    /** The archive's file (it may not exist yet). */
    Path file() {
        return file;
    }

    /**
     * The options that make the JVM map the archive, or make it when there is none yet; none when this digest cannot
     * have one, or the folder cannot be written.
     */
    List<String> options(Log log) {
        making = null;
        if (Files.isRegularFile(file)) {
            List<String> options = new ArrayList<>(QUIET);
            options.add("-XX:ErrorFile=" + folder.resolve(CRASH_REPORT + "%p.log"));
            options.add("-XX:SharedArchiveFile=" + file);
            return options;
        }
        if (Files.exists(unusable)) {
            return List.of();
        }
        try {
            Files.createDirectories(folder);
            making = folder.resolve("." + file.getFileName() + "." + Long.toHexString(
                    ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + ".tmp");
        } catch (IOException e) {
            log.debug(folder + ": cannot make the class archive's folder (" + e.getMessage() + "); checking without");
            return List.of();
        }
        List<String> options = new ArrayList<>(QUIET);
        options.add("-XX:ArchiveClassesAtExit=" + making);
        return options;
    }

    /**
     * The JVM started with {@link #options} has ended: a new archive is kept when the check gave its verdict, and is
     * thrown away otherwise.
     */
    void ended(boolean verdict, Log log) {
        if (making == null) {
            return;
        }
        try {
            if (verdict && Files.isRegularFile(making) && Files.size(making) > 0) {
                try {
                    Files.move(making, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(making, file, StandardCopyOption.REPLACE_EXISTING);
                }
                log.debug("Made the class archive " + file + " for the next checks");
                prune(log);
            }
        } catch (IOException e) {
            log.debug(file + ": cannot keep the class archive (" + e.getMessage() + ")");
        } finally {
            deleteQuietly(making, log);
            making = null;
        }
    }

    /**
     * The JVM started with {@link #options} ended before the check began, and one without them did not: the archive
     * is deleted, or, when it was being made, the digest is marked as one this JVM cannot archive.
     */
    void refused(Log log) {
        try {
            if (making != null) {
                deleteQuietly(making, log);
                making = null;
                Files.writeString(unusable, "This JVM could not make a class archive with these options; the check"
                        + " runs without one. Delete this file to try again.\n");
                log.debug(unusable + ": this JVM cannot make a class archive; checking without one from now on");
            } else {
                Files.deleteIfExists(file);
                log.debug(file + ": the JVM could not map this class archive; deleted it");
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder, CRASH_REPORT + "*.log")) {
                    for (Path report : ds) {
                        deleteQuietly(report, log);
                    }
                }
            }
        } catch (IOException e) {
            log.debug(folder + ": " + e.getMessage());
        }
    }

    /** Keeps the {@value #KEPT} newest archives and deletes temporary files left by killed builds. */
    private void prune(Log log) throws IOException {
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
        archives.sort(Comparator.comparing(ClassArchive::modified).reversed());
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

    private static void deleteQuietly(Path p, Log log) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            log.debug(p + ": cannot delete (" + e.getMessage() + ")");
        }
    }
}
