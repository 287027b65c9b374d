package dev.resilienceharness.maven;

import dev.resilienceharness.fork.ForkedCheck;
import dev.resilienceharness.run.PhaseTime;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.Log;

/** One forked check's JVM: its command line, its start, and how it ended. */
final class ForkedJvm {

    private ForkedJvm() {
    }

    /**
     * How one forked JVM ended.
     *
     * @param command its command line
     * @param exit    its exit code
     * @param verdict its verdict ({@code kind, text}), or {@code null} when it gave none
     * @param began   whether its check began (it sent its first line)
     * @param held    what it printed before that, when the lines were held rather than logged
     */
    record Ended(String command, int exit, String[] verdict, boolean began, List<String> held) {
    }

    /**
     * Starts one JVM and logs its lines as they come; with {@code hold}, what it prints before its check begins is
     * held back, to be logged only if another attempt is not made.
     */
    static Ended start(Log log, Path java, List<String> jvmArgs, List<String> classpath, Path requestFile,
            boolean hold) throws IOException, InterruptedException {
        Process process = null;
        Thread stop = null;
        List<String> command = command(java, jvmArgs);
        String commandLine = String.join(" ", command);
        command.add(requestFile.toString());
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            // On the environment rather than the command line, which Windows bounds at 32,767 characters.
            pb.environment().put("CLASSPATH", String.join(File.pathSeparator, classpath));
            pb.redirectInput(ProcessBuilder.Redirect.PIPE);
            log.debug("Checking in a JVM of its own: " + String.join(" ", command));
            PhaseTime forked = PhaseTime.start(new MavenRunLog(log));
            process = pb.start();
            Process started = process;
            // A build stopped by Ctrl-C stops its check too.
            stop = new Thread(started::destroyForcibly, "resilience-check-stop");
            Runtime.getRuntime().addShutdownHook(stop);
            process.getOutputStream().close();
            ForkOutput gate = new ForkOutput(log, hold);
            Thread errors = new Thread(() -> gate.drain(started), "resilience-check-stderr");
            errors.setDaemon(true);
            errors.start();
            String[] end = gate.read(process);
            int exit = process.waitFor();
            errors.join();
            log.debug(forked.done("The check's JVM ended with exit code " + exit));
            return new Ended(commandLine, exit, end, gate.opened(), gate.held());
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            if (stop != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(stop);
                } catch (IllegalStateException e) {
                    // Maven's JVM is shutting down: the hook is running or has run.
                }
            }
        }
    }

    /** The forked JVM's command line up to the request file. */
    static List<String> command(Path java, List<String> jvmArgs) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmArgs);
        command.add(ForkedCheck.class.getName());
        return command;
    }
}
