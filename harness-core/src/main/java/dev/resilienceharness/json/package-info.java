/**
 * JSON as the cassettes need it: one strict mapper ({@link Json}), the canonical text and {@link Fingerprint} that
 * name a cassette, and the {@link VolatilePaths} left out of fingerprints and comparisons.
 */
package dev.resilienceharness.json;
