package dev.resilienceharness.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Counts the megabytes a benchmark got through, so that JMH reports MB/s next to the operation rate. */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class Megabytes {

    /** Megabytes (10^6 bytes) processed; JMH divides by the time, giving MB/s. */
    public double megabytes;

    @Setup(Level.Iteration)
    public void reset() {
        megabytes = 0;
    }

    void add(long bytes) {
        megabytes += bytes / 1e6;
    }
}
