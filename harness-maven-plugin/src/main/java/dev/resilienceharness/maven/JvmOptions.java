package dev.resilienceharness.maven;

import java.util.Arrays;
import java.util.List;

/** The forked check's JVM options as {@code resilience.fork.jvmArgs} gives them. */
final class JvmOptions {

    private JvmOptions() {
    }

    /** {@code jvmArgs} split on whitespace. */
    static List<String> split(String jvmArgs) {
        return jvmArgs == null || jvmArgs.isBlank() ? List.of()
                : Arrays.asList(jvmArgs.trim().split("\\s+"));
    }

    /** Whether any of the JVM options holds any of {@code words}: a choice the team made that the plugin leaves alone. */
    static boolean anyNames(List<String> jvmArgs, String... words) {
        for (String arg : jvmArgs) {
            for (String word : words) {
                if (arg.contains(word)) {
                    return true;
                }
            }
        }
        return false;
    }
}
