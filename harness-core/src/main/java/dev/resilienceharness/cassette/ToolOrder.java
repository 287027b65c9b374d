package dev.resilienceharness.cassette;

import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.json.VolatilePaths;
import java.util.Arrays;
import java.util.Comparator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The canonical order of a request's {@code tools} (docs cassettes.md, "Tool order"): Spring AI and langchain4j list
 * {@code @Tool} methods in reflection order, which changes from one JVM to the next, so the same code sends its tools
 * in another order. Each tool sorts by its name ({@code function.name} in Chat Completions, {@code name} in Responses
 * and Messages), a tool without one (a built-in such as {@code {"type": "web_search"}}) by its canonical JSON, and
 * tools with equal keys by their canonical JSON: a total order, so every order of the same tools sorts alike.
 */
final class ToolOrder {

    /** By key, then by canonical JSON: two tools that compare equal are the same JSON. */
    private static final Comparator<Keyed> ORDER = Comparator.comparing(Keyed::key).thenComparing(Keyed::canonical);

    private record Keyed(String key, String canonical, JsonNode tool) {
    }

    private ToolOrder() {
    }

    /**
     * Whether {@code request} declares at least two tools, and so could have been sent with them in another order;
     * a request without that has no other order to be found in.
     */
    static boolean reorderable(ObjectNode request) {
        JsonNode tools = request.get("tools");
        return tools != null && tools.isArray() && tools.size() > 1;
    }

    /**
     * The fingerprint of {@code request} with its volatile paths removed and its tools in canonical order, or
     * {@code null} when it has fewer than two tools. Requests that differ only in the order of their tools have the
     * same one; it names no file. The request is not changed.
     *
     * @throws IllegalArgumentException when the request holds a number with no JSON form
     */
    static String fingerprint(ObjectNode request, VolatilePaths volatilePaths) {
        if (!reorderable(request)) {
            return null;
        }
        ObjectNode stripped = volatilePaths.touchesRequest() ? volatilePaths.stripRequest(request.deepCopy()) : request;
        ObjectNode sorted = sorted(stripped);
        return sorted == null ? null : Fingerprint.of(sorted);
    }

    /**
     * A copy of {@code request} whose {@code tools} are in canonical order (the tools themselves shared, not copied),
     * or {@code null} when it has fewer than two tools.
     */
    static ObjectNode sorted(ObjectNode request) {
        if (!reorderable(request)) {
            return null;
        }
        JsonNode tools = request.get("tools");
        Keyed[] keyed = new Keyed[tools.size()];
        for (int i = 0; i < keyed.length; i++) {
            JsonNode tool = tools.get(i);
            String canonical = CanonicalJson.write(tool);
            String name = nameOf(tool);
            keyed[i] = new Keyed(name != null ? name : canonical, canonical, tool);
        }
        Arrays.sort(keyed, ORDER);
        ArrayNode inOrder = JsonNodeFactory.instance.arrayNode(keyed.length);
        for (Keyed k : keyed) {
            inOrder.add(k.tool());
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        copy.setAll(request);
        copy.set("tools", inOrder);
        return copy;
    }

    /** A tool's name: {@code name} (Responses, Messages), else {@code function.name} (Chat Completions), else null. */
    static String nameOf(JsonNode tool) {
        JsonNode name = tool.get("name");
        if (name != null && name.isString()) {
            return name.asString();
        }
        JsonNode function = tool.get("function");
        JsonNode inner = function == null ? null : function.get("name");
        return inner != null && inner.isString() ? inner.asString() : null;
    }
}
