package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * An agent loop under test: runs a scenario's ops through a transport under a policy and returns one outcome
 * per op handled (docs your-own-loop.md).
 *
 * <p>Implement this to have the harness check your own loop ({@code loop: com.acme.MyLoop} in
 * {@code resilience.yaml}; the class needs a public no-argument constructor). Rules of the game:
 * <ul>
 *   <li>make every provider call through {@link LoopRun#transport()}, sending {@link LoopRun#request(String)}
 *       (plus {@code "repair": n} for a repair call);</li>
 *   <li>wait only through {@link LoopRun#sleeper()}: the clock is virtual, so no real time passes;</li>
 *   <li>to survive a process restart, append each finished op's outcome to {@link LoopRun#journal()} and, on
 *       start, skip the ops the journal already holds, returning their journaled outcomes unchanged. A loop
 *       that does not is reported under partial work when a {@code crash} fault hits it.</li>
 * </ul>
 * A fresh instance is created for every run and after every simulated restart.
 */
@API(status = STABLE, since = "0.1.0")
public interface AgentLoop {

    /** Runs {@code run}'s ops in order and returns their outcomes (all work completed before a stop). */
    List<Outcome> run(LoopRun run);
}
