/**
 * Virtual time: a loop under test waits through a {@link Sleeper}, and the {@link VirtualClock} moves only when it
 * does, so a run that would wait minutes takes milliseconds; {@link RealSleepWatch} catches a loop sleeping for real.
 */
package dev.resilienceharness.clock;
