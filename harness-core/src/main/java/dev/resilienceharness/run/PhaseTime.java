package dev.resilienceharness.run;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * What a phase of a goal cost, for a debug line ({@code mvn -X}): its wall time and the CPU time the whole JVM spent
 * meanwhile, compiler and collector threads included, so that a cold full check can be taken apart without a profiler.
 * Without {@code -X} nothing is measured: the platform's management beans the CPU time comes from take a cold JVM
 * some 20 ms to set up, before the forked check starts and again in it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class PhaseTime {

    private final boolean measured;
    private final long wallNanos;
    private final long cpuNanos;

    private PhaseTime(boolean measured) {
        this.measured = measured;
        this.wallNanos = measured ? System.nanoTime() : 0;
        this.cpuNanos = measured ? processCpuNanos() : -1;
    }

    /** A phase starting now, measured when {@code log} logs debug lines. */
    public static PhaseTime start(RunLog log) {
        return new PhaseTime(log.isDebugEnabled());
    }

    /**
     * {@code what}, then the wall and CPU time since {@link #start}: {@code "... in 1840 ms (3.61 s of CPU)"};
     * {@code what} alone when the phase was not measured.
     */
    public String done(String what) {
        if (!measured) {
            return what;
        }
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
