package dev.resilienceharness.scenario;

import java.util.Arrays;

/**
 * The scheduler of a shared endpoint: the runs that share it take turns, one call at a time, in order of virtual time
 * (ties by their order in the yaml). A turn is given only when every run still going is waiting for one, so exactly
 * one run acts at a time, and the endpoint sees the same calls in the same order however the threads are scheduled.
 */
final class TurnTaking {

    private enum State { RUNNING, WAITING, DONE }

    private final State[] states;
    private final long[] at;
    private int granted = -1;

    TurnTaking(int runs) {
        states = new State[runs];
        Arrays.fill(states, State.RUNNING);
        at = new long[runs];
    }

    /** The turns of run {@code who}. */
    EndpointTurns of(int who) {
        return atNanos -> await(who, atNanos);
    }

    synchronized void await(int who, long atNanos) {
        states[who] = State.WAITING;
        at[who] = atNanos;
        grant();
        while (granted != who) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a turn at the shared endpoint", e);
            }
        }
        granted = -1;
        states[who] = State.RUNNING;
    }

    /** Run {@code who} has ended: it takes no more turns. */
    synchronized void done(int who) {
        states[who] = State.DONE;
        if (granted == who) {
            granted = -1;
        }
        grant();
    }

    private void grant() {
        if (granted >= 0) {
            return;
        }
        int next = -1;
        for (int i = 0; i < states.length; i++) {
            if (states[i] == State.RUNNING) {
                return;
            }
            if (states[i] == State.WAITING && (next < 0 || at[i] < at[next])) {
                next = i;
            }
        }
        if (next >= 0) {
            granted = next;
            notifyAll();
        }
    }
}
