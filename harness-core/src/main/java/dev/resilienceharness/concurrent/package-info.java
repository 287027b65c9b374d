/**
 * Work spread over the cores: {@link dev.resilienceharness.concurrent.Indices} runs a body for every index of a range
 * on the common fork/join pool and the calling thread, in leaves small enough that neither waits long for the other
 * at the end; {@link dev.resilienceharness.concurrent.Ahead} begins work on a thread of its own before it is needed.
 */
package dev.resilienceharness.concurrent;
