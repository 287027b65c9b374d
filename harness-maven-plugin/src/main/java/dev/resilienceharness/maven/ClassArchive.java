package dev.resilienceharness.maven;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.maven.plugin.logging.Log;

/**
 * The class-data archive of the forked check's JVM (HotSpot's dynamic CDS archive, JEP 350): the classes a check loads
 * from the plugin's jars, parsed and verified once, then mapped into every later check's JVM instead of being loaded
 * again (what that saves a cold full check is measured in bench/README.md, "The machinery measured").
 *
 * <p>An archive belongs to one {@code java}, one set of JVM options and one classpath, each jar with its size and
 * modification time: a digest of them all names its file, in a folder of the local repository (so that a CI cache of
 * {@code ~/.m2/repository} keeps it across clean clones). The first check with a new digest makes it: its JVM writes
 * the archive as it exits (once), to a temporary file that is renamed into place only when the check
 * gave its verdict, so that no later JVM maps a half-written one. At most {@value ClassArchives#KEPT} archives are
 * kept, the most recently made ({@link ClassArchives}).
 *
 * <p>A JVM that cannot use or make an archive (a JDK without its own base archive, a damaged file) is not the build's
 * problem: {@link ForkLauncher#launch} starts the check again without it, and the archive is deleted, or the digest
 * marked as one that cannot have an archive. Options that choose their own class sharing ({@code -Xshare},
 * {@code SharedArchiveFile}, {@code ArchiveClassesAtExit}, {@code UseSharedSpaces}) get no archive.
 */
final class ClassArchive {

    /** The JVM says nothing about sharing: a refused archive is no news to the user. */
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    /** Where a JVM that crashes on a damaged archive writes its error report, instead of the project's folder. */
    static final String CRASH_REPORT = ".check-crash-";

    private final Path folder;
    private final Path file;
    private final Path unusable;
    /** The archive the JVM started with {@link #options} writes, or {@code null} when it maps {@link #file}. */
    private Path making;

    ClassArchive(Path folder, String digest) {
        this.folder = folder;
        this.file = folder.resolve("check-" + digest + ".jsa");
        this.unusable = folder.resolve("check-" + digest + ".unusable");
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
                ClassArchives.prune(folder, log);
            }
        } catch (IOException e) {
            log.debug(file + ": cannot keep the class archive (" + e.getMessage() + ")");
        } finally {
            ClassArchives.deleteQuietly(making, log);
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
                ClassArchives.deleteQuietly(making, log);
                making = null;
                Files.writeString(unusable, "This JVM could not make a class archive with these options; the check"
                        + " runs without one. Delete this file to try again.\n");
                log.debug(unusable + ": this JVM cannot make a class archive; checking without one from now on");
            } else {
                Files.deleteIfExists(file);
                log.debug(file + ": the JVM could not map this class archive; deleted it");
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder, CRASH_REPORT + "*.log")) {
                    for (Path report : ds) {
                        ClassArchives.deleteQuietly(report, log);
                    }
                }
            }
        } catch (IOException e) {
            log.debug(folder + ": " + e.getMessage());
        }
    }


}
