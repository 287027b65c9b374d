package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/** Scenarios cannot run: a missing cassette, an unreadable one, or an unusable loop. Lists every problem. */
@API(status = INTERNAL, since = "0.1.0")
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
