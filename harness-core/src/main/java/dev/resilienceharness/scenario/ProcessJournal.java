package dev.resilienceharness.scenario;

import dev.resilienceharness.loop.Journal;
import dev.resilienceharness.loop.Outcome;
import java.util.List;

/**
 * The journal as a run's process sees it: what a process writes after it died is lost, as it would be in a real
 * restart, so a loop that catches its own death cannot hand the next process outcomes that never happened.
 */
final class ProcessJournal implements Journal {

    private final Journal journal;
    private final ScenarioTransport process;

    ProcessJournal(Journal journal, ScenarioTransport process) {
        this.journal = journal;
        this.process = process;
    }

    @Override
    public List<Outcome> completed() {
        return journal.completed();
    }

    @Override
    public void record(Outcome outcome) {
        if (process.dead()) {
            process.deadProcessActed();
            return;
        }
        journal.record(outcome);
    }

    @Override
    public void checkpoint(String op, Progress progress) {
        if (process.dead()) {
            process.deadProcessActed();
            return;
        }
        journal.checkpoint(op, progress);
    }

    @Override
    public Progress progress(String op) {
        return journal.progress(op);
    }
}
