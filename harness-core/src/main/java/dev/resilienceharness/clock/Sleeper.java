package dev.resilienceharness.clock;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import org.apiguardian.api.API;

/** Waits. Loops under test wait only through this, so the harness can make waiting virtual. */
@FunctionalInterface
@API(status = STABLE, since = "0.1.0")
public interface Sleeper {

    void sleep(Duration duration);
}
