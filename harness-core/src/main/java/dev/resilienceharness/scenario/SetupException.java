package dev.resilienceharness.scenario;

import java.util.List;

/** Scenarios cannot run: a missing cassette, an unreadable one, or an unusable loop. Lists every problem. */
public final class SetupException extends Exception {

    private final List<String> problems;

    public SetupException(List<String> problems) {
        super(String.join(System.lineSeparator(), problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem as one sentence naming the file, line and key. */
    public List<String> problems() {
        return problems;
    }
}
