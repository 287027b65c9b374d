/**
 * Cassettes, the recorded exchanges every replay answers from: {@link Cassette} is one file, {@link CassetteStore}
 * a folder of them named by {@link dev.resilienceharness.json.Fingerprint fingerprint}, read strictly by
 * {@link CassetteReader}; a request no cassette answers is a {@link CassetteMiss} naming the nearest recording.
 */
package dev.resilienceharness.cassette;
