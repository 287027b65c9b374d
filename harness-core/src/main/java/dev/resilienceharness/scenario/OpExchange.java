package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.Cassette;

/**
 * An op's recorded exchange, prepared once for every run: its cassette and whether the recorded tool calls
 * break their schema (which makes every answered call for the op a schema failure).
 *
 * @param op            the op
 * @param cassette      the op's cassette
 * @param schemaProblem what is wrong with the recorded tool calls, or {@code null}
 */
public record OpExchange(String op, Cassette cassette, String schemaProblem) {
}
