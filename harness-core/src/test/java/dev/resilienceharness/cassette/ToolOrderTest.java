package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.testing.ToolOrders;
import dev.resilienceharness.testing.ToolOrders.Shape;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The canonical order of a request's tools: by name, else by canonical JSON, ties by canonical JSON. */
class ToolOrderTest {

    private static final VolatilePaths NONE = VolatilePaths.of(List.of());

    private static ObjectNode obj(String json) {
        return (ObjectNode) Json.readTree(json);
    }

    @Test
    void everyOrderOfTheSameToolsHasOneToolOrderFreeFingerprintInEachShape() {
        for (ApiShape api : ApiShape.values()) {
            Shape shape = Shape.of(api);
            for (int n = 2; n <= ToolOrders.MAX_TOOLS; n++) {
                ObjectNode recorded = shape.request("ask", shape.tools(n));
                String key = ToolOrder.fingerprint(recorded, NONE);
                Set<String> exact = new HashSet<>();
                for (List<ObjectNode> order : ToolOrders.permutations(shape.tools(n))) {
                    ObjectNode sent = shape.request("ask", order);
                    assertEquals(key, ToolOrder.fingerprint(sent, NONE), shape + " " + order);
                    exact.add(CassetteReader.fingerprint(sent, NONE));
                }
                assertEquals(ToolOrders.permutations(shape.tools(n)).size(), exact.size(),
                        "the fingerprint itself still tells every order apart");
            }
        }
    }

    @Test
    void toolsSortByNameInEachShapeAndBuiltInsByTheirJson() {
        assertEquals(List.of("commit", "edit", "read_file", "run_tests", "search"),
                names(ToolOrder.sorted(Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(5)))));
        assertEquals(List.of("commit", "edit", "read_file", "run_tests", "search"),
                names(ToolOrder.sorted(Shape.MESSAGES.request("ask", Shape.MESSAGES.tools(5)))));
        ObjectNode gemini = ToolOrder.sorted(Shape.GEMINI.request("ask", Shape.GEMINI.tools(5)));
        assertEquals(List.of("commit", "edit", "read_file", "run_tests", "search"),
                names(gemini.at("/tools/0/functionDeclarations")), "a Gemini tool's declarations, by name");
        ObjectNode bedrock = ToolOrder.sorted(Shape.BEDROCK.request("ask", Shape.BEDROCK.tools(5)));
        assertEquals(List.of("commit", "edit", "read_file", "run_tests", "search"),
                names(bedrock.at("/toolConfig/tools")), "Bedrock's toolConfig.tools, by toolSpec.name");
        // Built-ins have no name: their canonical JSON ({"type":...) is their key, which sorts after the names here.
        ObjectNode responses = ToolOrder.sorted(Shape.RESPONSES.request("ask", Shape.RESPONSES.tools(5)));
        assertEquals(java.util.Arrays.asList("commit", "edit", "search", null, null), names(responses));
        assertEquals("file_search", responses.at("/tools/3/type").asString());
        assertEquals("web_search", responses.at("/tools/4/type").asString());
    }

    @Test
    void geminiToolsAndTheDeclarationsInsideThemMayComeInAnyOrder() {
        List<ObjectNode> declarations = Shape.GEMINI.tools(3);
        ObjectNode one = obj("{\"model\": \"gemini-x\", \"contents\": [{\"role\": \"user\", \"parts\": [{\"text\":"
                + " \"ask\"}]}], \"tools\": [{\"functionDeclarations\": [" + declarations.get(0) + ", "
                + declarations.get(1) + "]}, {\"googleSearch\": {}}, {\"functionDeclarations\": ["
                + declarations.get(2) + "]}]}");
        ObjectNode other = one.deepCopy();
        other.set("tools", Json.readTree("[{\"functionDeclarations\": [" + declarations.get(2) + "]}, "
                + "{\"functionDeclarations\": [" + declarations.get(1) + ", " + declarations.get(0) + "]}, "
                + "{\"googleSearch\": {}}]"));
        assertNotEquals(CassetteReader.fingerprint(one, NONE), CassetteReader.fingerprint(other, NONE));
        assertEquals(ToolOrder.fingerprint(one, NONE), ToolOrder.fingerprint(other, NONE));
        assertEquals(ToolOrder.sorted(one), ToolOrder.sorted(other));
        String before = one.toString();
        ToolOrder.sorted(one);
        assertEquals(before, one.toString(), "the declarations were sorted in a copy");

        ObjectNode moved = one.deepCopy();
        ((ObjectNode) moved.at("/tools/2/functionDeclarations/0")).put("description", "does it elsewhere");
        assertNotEquals(ToolOrder.fingerprint(one, NONE), ToolOrder.fingerprint(moved, NONE),
                "a declaration that changed is still another request");
        ObjectNode regrouped = one.deepCopy();
        regrouped.set("tools", Json.readTree("[{\"functionDeclarations\": [" + declarations.get(0) + "]}, "
                + "{\"googleSearch\": {}}, {\"functionDeclarations\": [" + declarations.get(1) + ", "
                + declarations.get(2) + "]}]"));
        assertNotEquals(ToolOrder.fingerprint(one, NONE), ToolOrder.fingerprint(regrouped, NONE),
                "declarations moved to another tool are not the same tools");
    }

    @Test
    void aGeminiToolOrABedrockToolConfigWithOneToolHasNoOtherOrder() {
        ObjectNode gemini = Shape.GEMINI.request("ask", Shape.GEMINI.tools(1));
        assertFalse(ToolOrder.reorderable(gemini));
        assertNull(ToolOrder.sorted(gemini));
        assertTrue(ToolOrder.reorderable(Shape.GEMINI.request("ask", Shape.GEMINI.tools(2))),
                "one tool, two declarations");
        ObjectNode bedrock = Shape.BEDROCK.request("ask", Shape.BEDROCK.tools(1));
        assertFalse(ToolOrder.reorderable(bedrock));
        assertNull(ToolOrder.fingerprint(bedrock, NONE));
        assertFalse(ToolOrder.reorderable(obj("{\"modelId\": \"m\", \"toolConfig\": {\"tools\": {\"a\": 1}}}")));
    }

    @Test
    void bedrocksToolChoiceStaysBesideItsSortedTools() {
        ObjectNode request = Shape.BEDROCK.request("ask", Shape.BEDROCK.tools(3));
        ((ObjectNode) request.get("toolConfig")).putObject("toolChoice").putObject("auto");
        ObjectNode sorted = ToolOrder.sorted(request);
        assertEquals("{\"auto\":{}}", sorted.at("/toolConfig/toolChoice").toString());
        assertEquals(List.of("edit", "read_file", "search"), names(sorted.at("/toolConfig/tools")));
        assertEquals("search", request.at("/toolConfig/tools/0/toolSpec/name").asString(), "the request is not changed");
    }

    @Test
    void toolsOfOneNameSortByTheirCanonicalJsonSoTheOrderIsTotal() {
        ObjectNode a = obj("{\"name\": \"edit\", \"description\": \"b\", \"input_schema\": {\"type\": \"object\"}}");
        ObjectNode b = obj("{\"input_schema\": {\"type\": \"object\"}, \"description\": \"a\", \"name\": \"edit\"}");
        ObjectNode one = Shape.MESSAGES.request("ask", List.of(a, b));
        ObjectNode other = Shape.MESSAGES.request("ask", List.of(b, a));
        assertEquals(ToolOrder.sorted(one), ToolOrder.sorted(other));
        assertEquals("a", ToolOrder.sorted(one).at("/tools/0/description").asString());
        assertEquals(ToolOrder.fingerprint(one, NONE), ToolOrder.fingerprint(other, NONE));
    }

    @Test
    void aRequestWithFewerThanTwoToolsHasNoOtherOrder() {
        assertFalse(ToolOrder.reorderable(obj("{\"model\": \"m\"}")));
        assertFalse(ToolOrder.reorderable(obj("{\"model\": \"m\", \"tools\": {\"a\": 1}}")));
        ObjectNode single = Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(1));
        assertFalse(ToolOrder.reorderable(single));
        assertNull(ToolOrder.fingerprint(single, NONE));
        assertNull(ToolOrder.sorted(single));
        assertTrue(ToolOrder.reorderable(Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(2))));
    }

    @Test
    void otherDifferencesStillCountAndTheRequestIsNotChanged() {
        ObjectNode request = Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(3));
        String before = request.toString();
        assertNotEquals(ToolOrder.fingerprint(request, NONE), ToolOrder.fingerprint(
                Shape.CHAT_COMPLETIONS.request("ask again", Shape.CHAT_COMPLETIONS.tools(3)), NONE));
        ToolOrder.fingerprint(request, NONE);
        ToolOrder.sorted(request);
        assertEquals(before, request.toString());
        // A request already in canonical order: the tool-order-free fingerprint is its own.
        ObjectNode sorted = ToolOrder.sorted(request);
        assertEquals(CassetteReader.fingerprint(sorted, NONE), ToolOrder.fingerprint(sorted, NONE));
    }

    @Test
    void volatileRequestPathsAreRemovedFirstAsForTheFingerprint() {
        VolatilePaths user = VolatilePaths.of(List.of("request.user"));
        ObjectNode request = Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(3));
        ObjectNode withUser = ToolOrders.withTools(request, List.of(request.get("tools").get(2),
                request.get("tools").get(0), request.get("tools").get(1))).put("user", "u-1");
        assertEquals(ToolOrder.fingerprint(request, user), ToolOrder.fingerprint(withUser, user));
    }

    private static List<String> names(ObjectNode request) {
        return names(request.get("tools"));
    }

    private static List<String> names(JsonNode tools) {
        List<String> names = new java.util.ArrayList<>();
        for (JsonNode tool : tools) {
            names.add(ToolOrder.nameOf(tool));
        }
        return names;
    }
}
