package dev.resilienceharness.maven;

import dev.resilienceharness.fork.ForkRequest;
import dev.resilienceharness.fork.ForkedCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * Starts the {@code check} goal in a JVM of its own, as surefire runs tests in a forked JVM, and logs what it logs as
 * it comes ({@link ForkedCheck} is that JVM's side, in core). A full check is one pass of a few seconds over thousands
 * of files, in a JVM that has just started: in Maven's JVM, the optimising compiler spends more time compiling that
 * pass than the compiled code saves, and on a 2-core runner it takes one of the two cores away. The forked JVM runs
 * with the options of {@code resilience.fork.jvmArgs} ({@code ForkProtocol.DEFAULT_JVM_ARGS} by default: the quick
 * compiler only; the parallel collector, whose collections use both cores, with a young generation of 96 MB whose
 * survivors go straight to the old generation, and an old one at most a quarter larger than what is live, so that the
 * heap follows what the check keeps rather than how fast it allocates; on Linux, on transparent huge pages where the
 * kernel offers them, {@link HugePages}). What outlives one young collection here is nearly always kept to the end
 * (the yaml's settings, the answers kept for the runs, the fingerprints), so copying it between survivor spaces first
 * would only copy it twice. A JVM that ends without a verdict is an error that says how it was started.
 */
final class ForkLauncher {

    private ForkLauncher() {
    }

    /**
     * Runs {@code request}'s check with the {@code java} Maven runs on, the options {@code jvmArgs} names (and huge
     * pages where offered) and a class archive in {@code localRepository} (none when it is {@code null}).
     */
    static void check(Log log, ForkRequest request, String jvmArgs, String localRepository)
            throws MojoExecutionException, MojoFailureException {
        Path java = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name").startsWith("Windows") ? "java.exe" : "java");
        List<String> options = HugePages.added(JvmOptions.split(jvmArgs));
        List<String> classpath = ForkClasspath.of();
        ClassArchive archive = localRepository == null ? null
                : ClassArchives.of(Path.of(localRepository, ClassArchives.FOLDER), java, options, classpath);
        launch(log, java, options, classpath, request, archive);
    }

    /**
     * Runs the check in a new JVM and logs what it logs, as it comes.
     *
     * @param java      the {@code java} executable
     * @param jvmArgs   the forked JVM's options
     * @param classpath the plugin's own jars
     * @throws MojoFailureException   when the check finds violations (as in Maven's JVM)
     * @throws MojoExecutionException when the check cannot run, or the forked JVM ends without a verdict
     */
    static void launch(Log log, Path java, List<String> jvmArgs, List<String> classpath, ForkRequest request)
            throws MojoExecutionException, MojoFailureException {
        launch(log, java, jvmArgs, classpath, request, null);
    }

    /**
     * As {@link #launch(Log, Path, List, List, Request)}, with the JVM mapping {@code archive}, or making it when it
     * does not exist yet ({@code null}: none). A JVM that ends before the check begins with the archive's options is
     * started again without them: what it printed is logged only if that one fails too.
     */
    static void launch(Log log, Path java, List<String> jvmArgs, List<String> classpath, ForkRequest request,
            ClassArchive archive) throws MojoExecutionException, MojoFailureException {
        Path requestFile = null;
        try {
            requestFile = Files.createTempFile("resilience-check-", ".properties");
            request.write(requestFile);
            List<String> sharing = archive == null ? List.of() : archive.options(log);
            ForkedJvm.Ended ended;
            if (sharing.isEmpty()) {
                ended = ForkedJvm.start(log, java, jvmArgs, classpath, requestFile, false);
            } else {
                List<String> withArchive = new ArrayList<>(jvmArgs);
                withArchive.addAll(sharing);
                ended = ForkedJvm.start(log, java, withArchive, classpath, requestFile, true);
                if (ended.began()) {
                    archive.ended(ended.verdict() != null, log);
                } else {
                    ForkedJvm.Ended without = ForkedJvm.start(log, java, jvmArgs, classpath, requestFile, false);
                    if (without.began()) {
                        ended.held().forEach(line -> log.debug("The JVM with the class archive said: " + line));
                        archive.refused(log);
                    } else {
                        archive.ended(false, log);
                    }
                    ended = without;
                }
            }
            String[] end = ended.verdict();
            if (end == null) {
                throw new MojoExecutionException("resilience:check: its JVM (" + ended.command()
                        + ") ended with exit code " + ended.exit() + " before it gave a verdict; its output is above."
                        + " Mend resilience.fork.jvmArgs, or check in Maven's JVM with -Dresilience.fork=false");
            }
            switch (end[0]) {
                case "ok" -> {
                }
                case "failure" -> throw new MojoFailureException(end[1]);
                default -> throw new MojoExecutionException(end[1]);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("resilience:check cannot start its JVM (" + String.join(" ",
                    ForkedJvm.command(java, jvmArgs)) + "): " + e.getMessage()
                    + ". Check in Maven's JVM with -Dresilience.fork=false", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("resilience:check was interrupted", e);
        } finally {
            if (requestFile != null) {
                try {
                    Files.deleteIfExists(requestFile);
                } catch (IOException e) {
                    log.debug(requestFile + ": cannot delete: " + e.getMessage());
                }
            }
        }
    }
}
