/**
 * What talks to the live provider: {@link LiveTransport} sends a request and brings back what a cassette records,
 * and {@link Recorder}, behind {@code mvn resilience:record}, writes the cassettes of a config's declared requests.
 */
package dev.resilienceharness.live;
