package dev.resilienceharness.clock;

import java.time.Duration;

/** Waits. Loops under test wait only through this, so the harness can make waiting virtual. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration);
}
