package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Reads the JSON Schemas of a request's {@code tools} when the cassette or yaml holding it is read: a schema that is
 * not valid JSON Schema, refers outside its own document, has a {@code $ref} that leads nowhere or back to itself
 * without checking anything, or a {@code pattern} the linear-time engine cannot run, is an error of that file rather
 * than a failure of every call (or a stack overflow) when the scenario runs.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ToolSchemas {

    /** The registry every tool schema is compiled in: patterns run on {@link LinearRegex}. */
    static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .regularExpressionFactory(LinearRegex.FACTORY).build()));

    /** The dialects the library carries; a {@code $schema} naming another would be fetched, so it is refused. */
    private static final Map<String, String> DIALECTS = dialects();

    /** Keywords holding one subschema that applies to the same value (a cycle through them never ends). */
    private static final Set<String> IN_PLACE_ONE = Set.of("not", "if", "then", "else");
    /** Keywords holding an array of subschemas that apply to the same value. */
    private static final Set<String> IN_PLACE_MANY = Set.of("allOf", "anyOf", "oneOf");
    /** Keywords holding one subschema applied to a part of the value. */
    private static final Set<String> NESTED_ONE = Set.of("additionalProperties", "contains", "propertyNames",
            "unevaluatedItems", "unevaluatedProperties", "additionalItems", "items");
    /** Keywords holding subschemas by name, applied to parts of the value (or, dependentSchemas, to the same). */
    private static final Set<String> NESTED_MAP = Set.of("properties", "patternProperties", "$defs", "definitions",
            "dependentSchemas");

    private ToolSchemas() {
    }

    private static Map<String, String> dialects() {
        Map<String, String> ids = new HashMap<>();
        for (String id : new String[] {"json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema",
                "json-schema.org/draft-07/schema", "json-schema.org/draft/2019-09/schema",
                "json-schema.org/draft/2020-12/schema"}) {
            String canonical = (id.contains("/draft/") ? "https://" : "http://") + id;
            for (String scheme : new String[] {"http://", "https://"}) {
                ids.put(scheme + id, canonical);
                ids.put(scheme + id + "#", canonical);
            }
        }
        return Map.copyOf(ids);
    }

    /**
     * A tool schema that cannot be used.
     *
     * @param path   where the schema is in the request, such as {@code tools[0].function.parameters}
     * @param detail what is wrong with it, naming the tool
     */
    public record Unusable(String path, String detail) {
        @Override
        public String toString() {
            return path + ": " + detail;
        }
    }

    /** The first tool schema {@code request} declares that cannot be used, or {@code null} when every one can. */
    public static Unusable problem(JsonNode request) {
        JsonNode tools = request == null ? null : request.get("tools");
        if (tools == null || !tools.isArray()) {
            return null;
        }
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            String where;
            JsonNode schema;
            String name;
            JsonNode fn = tool.get("function");
            if (fn != null && fn.isObject()) {
                where = "tools[" + i + "].function.parameters";
                schema = fn.get("parameters");
                name = fn.path("name").asString("");
            } else if (tool.has("input_schema")) {
                where = "tools[" + i + "].input_schema";
                schema = tool.get("input_schema");
                name = tool.path("name").asString("");
            } else {
                where = "tools[" + i + "].parameters";
                schema = tool.get("parameters");
                name = tool.path("name").asString("");
            }
            if (schema == null || schema.isNull()) {
                continue;
            }
            String problem = schemaProblem(schema);
            if (problem != null) {
                return new Unusable(where, "the schema of tool '" + abbreviate(name) + "' " + problem);
            }
        }
        return null;
    }

    /**
     * What is wrong with a tool's {@code output_schema}, as the end of a sentence ("is not a valid JSON Schema: ..."),
     * or {@code null} when it can check results.
     */
    public static String outputSchemaProblem(JsonNode schema) {
        return schemaProblem(schema);
    }

    /** The first way {@code value} breaks {@code schema} (a usable one), or {@code null} when it conforms. */
    public static String violation(JsonNode schema, JsonNode value) {
        List<Error> errors = REGISTRY.getSchema(schema).validate(value);
        return errors.isEmpty() ? null : abbreviate(errors.get(0).toString());
    }

    /** What is wrong with one tool schema, as the end of a sentence, or {@code null}. */
    static String schemaProblem(JsonNode schema) {
        if (schema.isBoolean()) {
            return null;
        }
        if (!schema.isObject()) {
            return "is not a valid JSON Schema: it is a JSON "
                    + schema.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
                    + ", where a schema is an object or true/false";
        }
        String outside = outsideReference(schema);
        if (outside != null) {
            return "refers outside itself (" + outside + "); only local references such as #/$defs/x are allowed";
        }
        Walk walk = new Walk(schema);
        walk.all();
        if (walk.problem != null) {
            return walk.problem;
        }
        String cycle = walk.cycle();
        if (cycle != null) {
            return "refers to itself in a cycle (" + cycle + "); a $ref must lead to a schema that checks something";
        }
        JsonNode declared = schema.get("$schema");
        String dialect = declared != null && declared.isString() ? DIALECTS.get(declared.asString())
                : "https://json-schema.org/draft/2020-12/schema";
        List<Error> errors;
        try {
            errors = REGISTRY.getSchema(SchemaLocation.of(dialect)).validate(schema);
        } catch (RuntimeException e) {
            return "is not a valid JSON Schema: " + abbreviate(String.valueOf(e.getMessage()));
        }
        if (!errors.isEmpty()) {
            return "is not a valid JSON Schema: " + abbreviate(errors.get(0).toString());
        }
        return null;
    }

    /** A value as quoted in a message: at most 40 characters, as a cassette's messages quote them. */
    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 20) + "..." + text.substring(text.length() - 10)
                + " (" + text.length() + " characters)";
    }

    /**
     * The first {@code $ref}, {@code $dynamicRef}, {@code $id} or {@code $schema} that points outside the schema,
     * else {@code null}; a {@code $schema} naming a dialect the library carries stays inside.
     */
    static String outsideReference(JsonNode schema) {
        if (schema.isObject()) {
            for (var e : schema.properties()) {
                String key = e.getKey();
                JsonNode v = e.getValue();
                if (v.isString() && (key.equals("$ref") || key.equals("$dynamicRef") || key.equals("$id"))
                        && !v.asString().startsWith("#")
                        || key.equals("$schema") && v.isString() && !DIALECTS.containsKey(v.asString())) {
                    return key + ": " + abbreviate(v.asString());
                }
                String inner = outsideReference(v);
                if (inner != null) {
                    return inner;
                }
            }
        } else if (schema.isArray()) {
            for (JsonNode item : schema) {
                String inner = outsideReference(item);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** One pass over a schema document: its patterns, its references, and the in-place edges between its parts. */
    private static final class Walk {
        private final JsonNode root;
        private final Map<String, JsonNode> anchors = new HashMap<>();
        /** From a subschema's pointer to the subschemas applied to the same value, each with the edge's label. */
        private final Map<String, List<String[]>> edges = new HashMap<>();
        private final Set<String> seen = new HashSet<>();
        /** Subschemas reached by a reference, walked after the document so that no chain of them nests calls. */
        private final ArrayDeque<Object[]> referenced = new ArrayDeque<>();
        String problem;

        Walk(JsonNode root) {
            this.root = root;
            collectAnchors(root, 0);
        }

        private void collectAnchors(JsonNode node, int depth) {
            if (depth > 1000) {
                return;
            }
            if (node.isObject()) {
                for (String key : new String[] {"$anchor", "$dynamicAnchor"}) {
                    JsonNode a = node.get(key);
                    if (a != null && a.isString()) {
                        anchors.putIfAbsent(a.asString(), node);
                    }
                }
            }
            for (JsonNode child : node.values()) {
                collectAnchors(child, depth + 1);
            }
        }

        void all() {
            schema(root, "#");
            while (problem == null && !referenced.isEmpty()) {
                Object[] next = referenced.poll();
                schema((JsonNode) next[0], (String) next[1]);
            }
        }

        private void schema(JsonNode node, String pointer) {
            if (problem != null || !node.isObject() || !seen.add(pointer)) {
                return;
            }
            List<String[]> out = edges.computeIfAbsent(pointer, p -> new ArrayList<>());
            for (var e : node.properties()) {
                String key = e.getKey();
                JsonNode v = e.getValue();
                String at = pointer + "/" + escape(key);
                if ((key.equals("$ref") || key.equals("$dynamicRef")) && v.isString()) {
                    String target = target(v.asString());
                    if (target == null) {
                        problem = "has a " + key + " at " + pointer + " that leads nowhere ("
                                + abbreviate(v.asString()) + ")";
                        return;
                    }
                    out.add(new String[] {target, key + " at " + pointer});
                } else if (key.equals("pattern") && v.isString()) {
                    checkPattern(v.asString(), at);
                } else if (IN_PLACE_ONE.contains(key)) {
                    out.add(new String[] {at, key + " at " + pointer});
                    schema(v, at);
                } else if (IN_PLACE_MANY.contains(key) && v.isArray()) {
                    for (int i = 0; i < v.size(); i++) {
                        out.add(new String[] {at + "/" + i, key + " at " + pointer});
                        schema(v.get(i), at + "/" + i);
                    }
                } else if (NESTED_ONE.contains(key) || key.equals("prefixItems")) {
                    if (v.isArray()) {
                        for (int i = 0; i < v.size(); i++) {
                            schema(v.get(i), at + "/" + i);
                        }
                    } else {
                        schema(v, at);
                    }
                } else if (NESTED_MAP.contains(key) && v.isObject()) {
                    for (var p : v.properties()) {
                        if (key.equals("patternProperties")) {
                            checkPattern(p.getKey(), at);
                        }
                        String child = at + "/" + escape(p.getKey());
                        if (key.equals("dependentSchemas")) {
                            out.add(new String[] {child, key + " at " + pointer});
                        }
                        schema(p.getValue(), child);
                    }
                }
                if (problem != null) {
                    return;
                }
            }
        }

        private void checkPattern(String regex, String at) {
                String why = problem == null ? LinearRegex.problem(regex) : null;
            if (why != null) {
                problem = "has a pattern at " + at + " that the linear-time regex engine cannot run (" + why
                        + "; lookaround and backreferences are not supported): " + abbreviate(regex);
            }
        }

        /** The pointer a local reference leads to, walked into if not yet seen, or {@code null} if it is none. */
        private String target(String ref) {
            String fragment;
            try {
                // Percent-decoded as a URI fragment: a '+' stays a '+'.
                fragment = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
            JsonNode node;
            String pointer;
            if (fragment.isEmpty() || fragment.startsWith("/")) {
                node = root;
                for (String token : fragment.isEmpty() ? new String[0] : fragment.substring(1).split("/", -1)) {
                    String key = token.replace("~1", "/").replace("~0", "~");
                    node = node.isArray() && key.matches("\\d{1,9}") ? node.get(Integer.parseInt(key))
                            : node.isObject() ? node.get(key) : null;
                    if (node == null) {
                        return null;
                    }
                }
                pointer = "#" + fragment;
            } else {
                node = anchors.get(fragment);
                if (node == null) {
                    return null;
                }
                pointer = "#" + fragment;
            }
            if (!node.isObject() && !node.isBoolean()) {
                return null;
            }
            referenced.add(new Object[] {node, pointer});
            return pointer;
        }

        /** A cycle of in-place edges, as "label leads back to pointer", or {@code null}. */
        String cycle() {
            Map<String, Integer> state = new HashMap<>();
            for (String start : new ArrayList<>(edges.keySet())) {
                String found = visit(start, state);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }

        private String visit(String start, Map<String, Integer> state) {
            if (state.containsKey(start)) {
                return null;
            }
            // An explicit stack: a long chain of references must not overflow this check either.
            record Frame(String node, List<String[]> out, int next) {
            }
            List<Frame> stack = new ArrayList<>();
            state.put(start, 1);
            stack.add(new Frame(start, edges.getOrDefault(start, List.of()), 0));
            while (!stack.isEmpty()) {
                Frame top = stack.remove(stack.size() - 1);
                if (top.next() >= top.out().size()) {
                    state.put(top.node(), 2);
                    continue;
                }
                stack.add(new Frame(top.node(), top.out(), top.next() + 1));
                String[] edge = top.out().get(top.next());
                Integer s = state.get(edge[0]);
                if (s != null && s == 1) {
                    return edge[1] + " leads back to " + edge[0];
                }
                if (s == null) {
                    state.put(edge[0], 1);
                    stack.add(new Frame(edge[0], edges.getOrDefault(edge[0], List.of()), 0));
                }
            }
            return null;
        }

        private static String escape(String key) {
            return key.replace("~", "~0").replace("/", "~1");
        }
    }
}
