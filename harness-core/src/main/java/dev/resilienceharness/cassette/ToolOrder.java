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
 * The canonical order of a request's tools (docs cassettes.md, "Tool order"): Spring AI and langchain4j list
 * {@code @Tool} methods in reflection order, which changes from one JVM to the next, so the same code sends its tools
 * in another order. Each tool sorts by its name ({@code function.name} in Chat Completions, {@code name} in Responses
 * and Messages, {@code toolSpec.name} in Bedrock Converse's {@code toolConfig.tools}), a tool without one (a built-in
 * such as {@code {"type": "web_search"}}, a Gemini tool holding {@code functionDeclarations}) by its canonical JSON,
 * and tools with equal keys by their canonical JSON: a total order, so every order of the same tools sorts alike.
 * A Gemini tool's {@code functionDeclarations} sort by {@code name} first, so they and the tools holding them may
 * come in any order.
 */
final class ToolOrder {

    /** By key, then by canonical JSON: two tools that compare equal are the same JSON. */
    private static final Comparator<Keyed> ORDER = Comparator.comparing(Keyed::key).thenComparing(Keyed::canonical);

    /** Where a Gemini tool lists its functions. */
    private static final String DECLARATIONS = "functionDeclarations";

    /** Where a Bedrock Converse request keeps its {@code tools}. */
    private static final String BEDROCK_CONFIG = "toolConfig";

    private record Keyed(String key, String canonical, JsonNode tool) {
    }

    private ToolOrder() {
    }

    /**
     * Whether {@code request} declares at least two tools (or one Gemini tool with two function declarations), and so
     * could have been sent with them in another order; a request without that has no other order to be found in.
     */
    static boolean reorderable(ObjectNode request) {
        JsonNode tools = toolsOf(request);
        if (tools == null) {
            return false;
        }
        if (tools.size() > 1) {
            return true;
        }
        JsonNode declarations = tools.isEmpty() ? null : tools.get(0).get(DECLARATIONS);
        return declarations != null && declarations.isArray() && declarations.size() > 1;
    }

    /** The array of tools {@code request} declares: {@code tools}, or Bedrock's {@code toolConfig.tools}; else null. */
    private static JsonNode toolsOf(ObjectNode request) {
        JsonNode tools = request.get("tools");
        if (tools == null) {
            JsonNode config = request.get(BEDROCK_CONFIG);
            tools = config == null ? null : config.get("tools");
        }
        return tools != null && tools.isArray() ? tools : null;
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
     * A copy of {@code request} whose tools are in canonical order (the tools themselves shared, not copied, but for
     * a Gemini tool whose declarations were sorted), or {@code null} when it has fewer than two tools.
     */
    static ObjectNode sorted(ObjectNode request) {
        if (!reorderable(request)) {
            return null;
        }
        JsonNode tools = toolsOf(request);
        ArrayNode inOrder = sorted(tools);
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        copy.setAll(request);
        if (request.get("tools") == tools) {
            copy.set("tools", inOrder);
        } else {
            ObjectNode config = JsonNodeFactory.instance.objectNode();
            config.setAll((ObjectNode) request.get(BEDROCK_CONFIG));
            config.set("tools", inOrder);
            copy.set(BEDROCK_CONFIG, config);
        }
        return copy;
    }

    private static ArrayNode sorted(JsonNode tools) {
        Keyed[] keyed = new Keyed[tools.size()];
        for (int i = 0; i < keyed.length; i++) {
            JsonNode tool = withDeclarationsSorted(tools.get(i));
            String canonical = CanonicalJson.write(tool);
            String name = nameOf(tool);
            keyed[i] = new Keyed(name != null ? name : canonical, canonical, tool);
        }
        Arrays.sort(keyed, ORDER);
        ArrayNode inOrder = JsonNodeFactory.instance.arrayNode(keyed.length);
        for (Keyed k : keyed) {
            inOrder.add(k.tool());
        }
        return inOrder;
    }

    /** A Gemini tool with its {@code functionDeclarations} in canonical order; any other tool as it is. */
    private static JsonNode withDeclarationsSorted(JsonNode tool) {
        JsonNode declarations = tool.get(DECLARATIONS);
        if (declarations == null || !declarations.isArray() || declarations.size() < 2) {
            return tool;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        copy.setAll((ObjectNode) tool);
        copy.set(DECLARATIONS, sorted(declarations));
        return copy;
    }

    /**
     * A tool's name: {@code name} (Responses, Messages, a Gemini function declaration), else {@code function.name}
     * (Chat Completions), else {@code toolSpec.name} (Bedrock Converse), else null.
     */
    static String nameOf(JsonNode tool) {
        JsonNode name = tool.get("name");
        if (name != null && name.isString()) {
            return name.asString();
        }
        for (String holder : new String[] {"function", "toolSpec"}) {
            JsonNode inner = tool.get(holder) == null ? null : tool.get(holder).get("name");
            if (inner != null && inner.isString()) {
                return inner.asString();
            }
        }
        return null;
    }
}
