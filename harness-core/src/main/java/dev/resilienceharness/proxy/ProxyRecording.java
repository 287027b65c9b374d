package dev.resilienceharness.proxy;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.live.ProviderCall;
import dev.resilienceharness.live.UnexpectedStatus;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.TransientError;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The proxy's record modes: forwards a request to the provider, writes its cassette through
 * {@link CassetteStore#exchangeInAnyToolOrder} (volatile paths stripped, redacted, failing closed) and answers the
 * client with what was written, so a client sees the redacted answer. What the provider refused is relayed as the
 * provider would have said it, in the request's API shape; nothing is written for it.
 */
final class ProxyRecording {

    private final CassetteStore store;
    private final ProviderCall upstream;

    ProxyRecording(CassetteStore store, ProviderCall upstream) {
        this.store = store;
        this.upstream = upstream;
    }

    /** Forwards {@code request} (record-missing answers an existing cassette instead) and says what to answer. */
    FaultAnswer record(ApiShape shape, ObjectNode request) {
        String op = request.path("model").isString() ? "proxy request for " + request.get("model").asString()
                : "proxy request";
        Cassette cassette;
        try {
            // Record-missing answers the same request with its tools in another order from its cassette too.
            cassette = store.exchangeInAnyToolOrder(op, request, r -> {
                try {
                    return upstream.send(op, r, shape);
                } catch (CallFailure | UnexpectedStatus e) {
                    throw new Upstream(e);
                }
            });
        } catch (Upstream e) {
            return relay(shape, e.getCause());
        } catch (CassetteException e) {
            return FaultAnswer.error(500, Map.of(), shape.errorBody(500, "cassette_unusable", e.getMessage(),
                    store.fingerprint(request)));
        } catch (IOException e) {
            return FaultAnswer.error(502, Map.of(), shape.errorBody(502, "upstream_unreachable",
                    String.valueOf(e.getMessage()), null));
        } catch (RecordingRedaction.Refused e) {
            return FaultAnswer.error(500, Map.of(), shape.errorBody(500, "redaction_refused", e.getMessage(),
                    store.fingerprint(request)));
        }
        return FaultAnswer.ok(dev.resilienceharness.http.FaultAsHttp.answerable(shape, cassette.response(), cassette.fingerprint()), Duration.ZERO);
    }

    /** Tells the client what the provider said, as the provider would have said it. */
    static FaultAnswer relay(ApiShape shape, Throwable failure) {
        if (failure instanceof QuotaExhausted q) {
            Map<String, String> headers = q.retryAfter() == null ? Map.of() : Map.of("Retry-After", q.retryAfter());
            return FaultAnswer.error(429, headers, shape.errorBody(429, "rate_limit_exceeded",
                    "the provider rejected the request for quota", null));
        }
        if (failure instanceof TransientError t) {
            int status = t.isTimeout() ? 504 : t.status();
            return FaultAnswer.error(status, Map.of(), shape.errorBody(status, "server_error", t.isTimeout()
                    ? "the provider timed out or dropped the connection" : "the provider answered " + t.status(),
                    null));
        }
        if (failure instanceof UnexpectedStatus u) {
            int status = u.status() == 200 ? 502 : u.status();
            return FaultAnswer.error(status, Map.of(), shape.errorBody(status, "upstream_error", u.getMessage(), null));
        }
        return FaultAnswer.error(502, Map.of(), shape.errorBody(502, "upstream_error",
                String.valueOf(failure.getMessage()), null));
    }

    /** Carries the provider's failure out of {@link CassetteStore.LiveCall}. */
    private static final class Upstream extends IOException {
        Upstream(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }
}
