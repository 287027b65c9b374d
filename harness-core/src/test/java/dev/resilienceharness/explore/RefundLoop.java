package dev.resilienceharness.explore;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.tool.ToolFailure;
import java.net.SocketTimeoutException;
import java.util.List;

/**
 * The built-in loop, then for each op that finished ok the side-effecting tool {@code refund}, tried twice when it
 * fails or times out. The blind loop retries a timed-out refund as a new call, so a refund that took effect before
 * its caller timed out ({@code timeout_after_commit}) happens twice; the careful loop passes the same idempotency key
 * with the retry, which the tool honours ({@code idempotency_key: passed}), so it never does.
 */
public final class RefundLoop implements AgentLoop {

    private final boolean careful;
    private final AgentLoop model = LoopFactory.builtin().create();

    private RefundLoop(boolean careful) {
        this.careful = careful;
    }

    /** Retries a timed-out refund without a key. */
    public static LoopFactory blind() {
        return () -> new RefundLoop(false);
    }

    /** Retries a timed-out refund with the key of the first try. */
    public static LoopFactory careful() {
        return () -> new RefundLoop(true);
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> outcomes = model.run(run);
        for (Outcome o : outcomes) {
            if (o.status() == Status.OK) {
                try (var scope = run.op(o.op())) {
                    refund(run, o.op());
                }
            }
        }
        return outcomes;
    }

    private void refund(LoopRun run, String op) {
        ToolCall call = ToolCall.of("refund", "{\"order\":\"" + op + "\"}");
        if (careful) {
            call = call.idempotencyKey("refund-" + op);
        }
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                run.tool(call, () -> "{\"refunded\":true}");
                return;
            } catch (SocketTimeoutException | ToolFailure e) {
                // the blind loop's mistake when careful is false: a timeout does not say the refund did not happen
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
