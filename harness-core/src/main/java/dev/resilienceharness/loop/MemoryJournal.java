package dev.resilienceharness.loop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A journal kept in memory: survives the simulated restarts of one scenario run, which share the harness's heap. */
public final class MemoryJournal implements Journal {

    private final List<Outcome> outcomes = new ArrayList<>();

    @Override
    public List<Outcome> completed() {
        return Collections.unmodifiableList(new ArrayList<>(outcomes));
    }

    @Override
    public void record(Outcome outcome) {
        outcomes.add(outcome);
    }
}
