package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.transport.CallFailure;
import java.io.IOException;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/** Sends one op's request to a real provider and brings back what a cassette records; {@link LiveTransport} is one. */
@FunctionalInterface
@API(status = INTERNAL, since = "0.1.0")
public interface ProviderCall {

    /**
     * Sends {@code request} once, exactly as given.
     *
     * @throws CallFailure      a quota rejection or a transient error, as a loop would see it
     * @throws UnexpectedStatus any other status, or a 200 whose body is not a chat completion
     * @throws IOException      the provider cannot be reached at all
     */
    CassetteStore.Recorded send(String op, ObjectNode request) throws CallFailure, UnexpectedStatus, IOException;

    /**
     * Sends {@code request} once to the provider's endpoint for {@code shape}; only Chat Completions unless the
     * implementation says otherwise.
     *
     * @throws UnexpectedStatus for a shape this provider call cannot send, naming it
     */
    default CassetteStore.Recorded send(String op, ObjectNode request, ApiShape shape)
            throws CallFailure, UnexpectedStatus, IOException {
        if (shape != ApiShape.CHAT_COMPLETIONS) {
            throw UnexpectedStatus.unsupported(op, shape);
        }
        return send(op, request);
    }
}
