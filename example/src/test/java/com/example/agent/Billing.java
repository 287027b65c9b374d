package com.example.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The team's billing client, as the refund tool calls it. In production it talks to the payment provider; here it
 * keeps the refunds it made, so that the loop can ask whether a refund already went through.
 */
public final class Billing {

    private final Map<String, String> receipts = new LinkedHashMap<>();

    /** Refunds {@code amountCents} on {@code orderId}; returns the refund's receipt as JSON. */
    public String refund(String orderId, long amountCents, String refundId) {
        String receipt = "{\"refund_id\":\"" + refundId + "\",\"order_id\":\"" + orderId + "\",\"refunded_cents\":"
                + amountCents + "}";
        receipts.put(refundId, receipt);
        return receipt;
    }

    /**
     * The receipt of the refund with {@code refundId}, if it went through: what a careful loop asks after an ambiguous
     * timeout.
     */
    public Optional<String> receipt(String refundId) {
        return Optional.ofNullable(receipts.get(refundId));
    }
}
