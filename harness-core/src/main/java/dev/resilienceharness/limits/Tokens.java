package dev.resilienceharness.limits;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Json;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * The tokens one answered call spent, read from its answer's {@code usage}: {@code prompt_tokens} and
 * {@code completion_tokens} (Chat Completions), {@code input_tokens} and {@code output_tokens} (Responses, Anthropic
 * Messages), or {@code total_tokens} alone (counted as input); a Gemini answer's {@code usageMetadata}:
 * {@code promptTokenCount} in, {@code candidatesTokenCount} and {@code thoughtsTokenCount} out. An answer without {@code usage} counts an estimate: one
 * token per four characters, rounded up, of the request's compact JSON as input and the answer's as output.
 *
 * @param input  prompt tokens
 * @param output completion tokens
 */
@API(status = INTERNAL, since = "0.1.0")
public record Tokens(long input, long output) {

    public static final Tokens NONE = new Tokens(0, 0);

    /** Characters per estimated token, OpenAI's rule of thumb for English text. */
    static final int CHARS_PER_TOKEN = 4;

    public Tokens {
        if (input < 0 || output < 0) {
            throw new IllegalArgumentException("tokens cannot be negative: " + input + ", " + output);
        }
    }

    public long total() {
        return input + output;
    }

    /** The tokens of an answered call: {@code response}'s usage, else the estimate from both bodies. */
    public static Tokens of(JsonNode request, JsonNode response) {
        JsonNode usage = response == null ? null : response.get("usage");
        if (usage != null && usage.isObject()) {
            Long prompt = count(usage, "prompt_tokens");
            Long completion = count(usage, "completion_tokens");
            if (prompt != null || completion != null) {
                return new Tokens(orZero(prompt), orZero(completion));
            }
            Long in = count(usage, "input_tokens");
            Long out = count(usage, "output_tokens");
            if (in != null || out != null) {
                return new Tokens(orZero(in), orZero(out));
            }
            Long total = count(usage, "total_tokens");
            if (total != null) {
                return new Tokens(total, 0);
            }
        }
        JsonNode gemini = response == null ? null : response.get("usageMetadata");
        if (gemini != null && gemini.isObject()) {
            Long prompt = count(gemini, "promptTokenCount");
            Long candidates = count(gemini, "candidatesTokenCount");
            Long thoughts = count(gemini, "thoughtsTokenCount");
            if (prompt != null || candidates != null || thoughts != null) {
                return new Tokens(orZero(prompt), orZero(candidates) + orZero(thoughts));
            }
        }
        return new Tokens(estimate(request), estimate(response));
    }

    /** One token per four characters of {@code node}'s compact JSON, rounded up; 0 for none. */
    static long estimate(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return 0;
        }
        String text = Json.compact(node);
        long chars = text.codePointCount(0, text.length());
        return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }

    private static Long count(JsonNode usage, String key) {
        JsonNode n = usage.get(key);
        return n != null && n.isIntegralNumber() && n.asLong() >= 0 ? n.asLong() : null;
    }

    private static long orZero(Long n) {
        return n == null ? 0 : n;
    }
}
