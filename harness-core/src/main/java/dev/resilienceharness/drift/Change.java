package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One way a live answer differs from its cassette.
 *
 * @param kind     what changed
 * @param path     where, as a JSON path into the response ({@code choices[0].message.tool_calls}) or into the
 *                 cassette's timing ({@code timing.first_token_ms})
 * @param recorded what the cassette has there, in words or as a value ({@code null}: nothing)
 * @param live     what the live answer has there ({@code null}: nothing)
 */
@API(status = INTERNAL, since = "0.1.0")
public record Change(ChangeKind kind, String path, String recorded, String live) {

    public Change {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(path, "path");
    }

    /** The line a person reads: {@code choices[0].message.tool_calls: removed (the cassette has an array)}. */
    public String line() {
        return path + ": " + DriftMessages.describe(this);
    }
}
