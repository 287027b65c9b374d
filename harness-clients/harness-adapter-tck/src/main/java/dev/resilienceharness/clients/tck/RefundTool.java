package dev.resilienceharness.clients.tck;

import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.tool.ToolCall;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The refund tool as a team's hand-written loop runs it through {@code run.tool(...)}: it counts the refunds its own
 * code made, and may pass an idempotency key and run the tool again, once, after it timed out.
 */
public final class RefundTool {

    private final boolean retriesAfterTimeout;
    private final boolean passesKey;
    private final AtomicInteger refunds = new AtomicInteger();

    /**
     * @param retriesAfterTimeout whether the loop runs the tool again itself after a timeout
     * @param passesKey whether the loop passes the idempotency key {@code refund-A1}
     */
    public RefundTool(boolean retriesAfterTimeout, boolean passesKey) {
        this.retriesAfterTimeout = retriesAfterTimeout;
        this.passesKey = passesKey;
    }

    /** Starts a run: no refund made yet. */
    public void reset() {
        refunds.set(0);
    }

    /** The refunds the tool's own code made since {@link #reset}. */
    public int refunds() {
        return refunds.get();
    }

    /** Runs the tool the model asked for with {@code arguments} through the run's gate; its result for the model. */
    public String execute(LoopRun run, String name, String arguments) {
        ToolCall call = ToolCall.of(name, arguments);
        if (passesKey) {
            call = call.idempotencyKey("refund-A1");
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return run.tool(call, () -> {
                    refunds.incrementAndGet();
                    return "{\"status\":\"refunded\"}";
                });
            } catch (SocketTimeoutException e) {
                if (!retriesAfterTimeout || attempt > 1) {
                    return "refund timed out";
                }
            } catch (Exception e) {
                return "refund failed: " + e.getMessage();
            }
        }
    }
}
