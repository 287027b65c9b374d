package com.example.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * The team's billing client, as the refund tool calls it. In production it talks to the payment provider; here it
 * keeps the refunds it made, so that the loop can ask whether a refund already went through.
 */
public final class Billing {

    private final List<String> refunds = new ArrayList<>();

    /** Refunds {@code amountCents} on {@code orderId}; returns the refund's receipt as JSON. */
    public String refund(String orderId, long amountCents, String refundId) {
        refunds.add(refundId);
        return "{\"refund_id\":\"" + refundId + "\",\"order_id\":\"" + orderId + "\",\"refunded_cents\":" + amountCents
                + "}";
    }

    /** Whether a refund with {@code refundId} went through: what a careful loop asks after an ambiguous timeout. */
    public boolean refunded(String refundId) {
        return refunds.contains(refundId);
    }
}
