package dev.resilienceharness.clients.bedrock;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Random;
import java.util.function.Supplier;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * The jitter of the SDK's backoff, held at its middle. The SDK's strategies draw each delay at random (the standard
 * mode's full jitter between zero and the exponential delay, legacy's half jitter in its upper half), from a random
 * source each backoff keeps (retries-spi 2.59.1, {@code ExponentialDelayWithJitter},
 * {@code ExponentialDelayWithHalfJitter}). Drawn at random, the virtual waits, and with them {@code max_total_wait}'s
 * verdict and the report's timeline, would change from run to run; held at the middle, every run waits the same.
 */
final class MiddleOfTheJitter extends Random {

    private static final long serialVersionUID = 1L;

    private static final MiddleOfTheJitter MIDDLE = new MiddleOfTheJitter();

    private MiddleOfTheJitter() {
    }

    @Override
    public int nextInt(int bound) {
        return bound / 2;
    }

    @Override
    public double nextDouble() {
        return 0.5;
    }

    /**
     * Holds at the middle the jitter of every backoff {@code strategy} keeps (its {@code backoffStrategy} and
     * {@code throttlingBackoffStrategy}); a backoff that draws nothing, or a strategy of the team's own, is left as
     * it is.
     *
     * @return {@code strategy}
     * @throws IllegalStateException when the SDK's backoff cannot be reached: a release whose internals moved
     */
    static RetryStrategy hold(RetryStrategy strategy) {
        try {
            for (Class<?> c = strategy.getClass(); c != null; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && BackoffStrategy.class.isAssignableFrom(f.getType())) {
                        f.setAccessible(true);
                        Object backoff = f.get(strategy);
                        if (backoff != null) {
                            holdDraws(backoff);
                        }
                    }
                }
            }
            return strategy;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(AdapterMessages.cannotHoldJitter(e), e);
        }
    }

    private static void holdDraws(Object backoff) throws ReflectiveOperationException {
        for (Field f : backoff.getClass().getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && f.getType() == Supplier.class
                    && f.getName().equals("randomSupplier")) {
                f.setAccessible(true);
                Supplier<Random> middle = () -> MIDDLE;
                f.set(backoff, middle);
            }
        }
    }
}
