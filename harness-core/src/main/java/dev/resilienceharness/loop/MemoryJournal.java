package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apiguardian.api.API;

/** A journal kept in memory: survives the simulated restarts of one scenario run, which share the harness's heap. */
@API(status = INTERNAL, since = "0.1.0")
public final class MemoryJournal implements Journal {

    private final List<Outcome> outcomes = new ArrayList<>();
    private final java.util.Map<String, Progress> progress = new java.util.HashMap<>();

    @Override
    public List<Outcome> completed() {
        return Collections.unmodifiableList(new ArrayList<>(outcomes));
    }

    @Override
    public void record(Outcome outcome) {
        outcomes.add(outcome);
        progress.remove(outcome.op());
    }

    @Override
    public void checkpoint(String op, Progress p) {
        progress.put(op, p);
    }

    @Override
    public Progress progress(String op) {
        return progress.getOrDefault(op, Progress.NONE);
    }
}
