package dev.resilienceharness.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The forked check's heap on the kernel's transparent huge pages, where Linux offers them to a process that asks.
 *
 * <p>A cold full check touches a few hundred MB of fresh memory (the young generation, then the old one as the kept
 * answers and settings are promoted into it), and on 4 KB pages each first touch is a page fault. A kernel in
 * {@code madvise} mode ({@value #SETTING}) gives huge pages only to a mapping that asks for them, which HotSpot does
 * for its heap and code with {@value #OPTION}: the same check then takes a fraction of the faults, and less CPU
 * (bench/README.md, "The machinery measured").
 *
 * <p>The option is added on Linux when that setting is {@code madvise} or {@code always}, and not when it is
 * {@code never}, when the kernel has no such setting, or on another system (where HotSpot does not know the option and
 * would refuse to start). Options of the team's own that name large or huge pages in any way (for example
 * {@code -XX:-UseTransparentHugePages}, which turns it off, or {@code -XX:+UseLargePages}) get nothing added.
 */
final class HugePages {

    /** HotSpot's option that puts the heap and the code on transparent huge pages, by {@code madvise}. */
    static final String OPTION = "-XX:+UseTransparentHugePages";

    /** Where Linux tells its transparent huge pages' mode: the chosen one in brackets. */
    static final String SETTING = "/sys/kernel/mm/transparent_hugepage/enabled";

    private HugePages() {
    }

    /** The options, with {@link #OPTION} added when this machine's kernel offers huge pages to a JVM that asks. */
    static List<String> added(List<String> jvmArgs) {
        return added(jvmArgs, System.getProperty("os.name", ""), Path.of(SETTING));
    }

    /**
     * The options, with {@link #OPTION} added when {@code osName} is Linux, {@code setting} (the kernel's mode file)
     * chooses {@code madvise} or {@code always}, and no option names large or huge pages.
     */
    static List<String> added(List<String> jvmArgs, String osName, Path setting) {
        if (!osName.equals("Linux") || JvmOptions.anyNames(jvmArgs, "LargePage", "HugePage", "HugeTLB")
                || !offered(setting)) {
            return jvmArgs;
        }
        List<String> options = new ArrayList<>(jvmArgs);
        options.add(OPTION);
        return options;
    }

    /** Whether the mode file chooses {@code [madvise]} or {@code [always]}; not when it is missing or unreadable. */
    private static boolean offered(Path setting) {
        String mode;
        try {
            mode = Files.readString(setting, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return mode.contains("[madvise]") || mode.contains("[always]");
    }
}
