package dev.resilienceharness.maven;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;

/**
 * What a phase of a goal cost, for a debug line ({@code mvn -X}): its wall time and the CPU time the whole JVM spent
 * meanwhile, compiler and collector threads included, so that a cold full check can be taken apart without a profiler.
 */
final class PhaseTime {

    private final long wallNanos = System.nanoTime();
    private final long cpuNanos = processCpuNanos();

    private PhaseTime() {
    }

    /** A phase starting now. */
    static PhaseTime start() {
        return new PhaseTime();
    }

    /** {@code what}, then the wall and CPU time since {@link #start()}: {@code "... in 1840 ms (3.61 s of CPU)"}. */
    String done(String what) {
        double ms = (System.nanoTime() - wallNanos) / 1e6;
        long cpu = processCpuNanos();
        String cpuTime = cpu < 0 || cpuNanos < 0 ? ""
                : String.format(Locale.ROOT, " (%.2f s of CPU)", (cpu - cpuNanos) / 1e9);
        return String.format(Locale.ROOT, "%s in %.0f ms", what, ms) + cpuTime;
    }

    private static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean hotspot ? hotspot.getProcessCpuTime() : -1;
    }
}
