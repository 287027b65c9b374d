/**
 * The faults a scenario's {@code faults:} list can inject, one record per kind under the sealed {@link Fault}: quota,
 * server errors, timeouts, crashes, slow first tokens, bad tool calls and the stream faults.
 */
package dev.resilienceharness.fault;
