package com.example.agent;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** PoliteLoop, which says once on its standard output what the build's -Dgreeting is, and a word beyond ASCII. */
public final class GreetingLoop implements AgentLoop {

    private static final AtomicBoolean GREETED = new AtomicBoolean();

    @Override
    public List<Outcome> run(LoopRun run) {
        if (GREETED.compareAndSet(false, true)) {
            System.out.println("GreetingLoop says: " + System.getProperty("greeting") + ", caf\u00e9");
        }
        return new PoliteLoop().run(run);
    }
}
