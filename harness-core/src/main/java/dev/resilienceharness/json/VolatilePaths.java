package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The configured {@code volatile} paths (docs configuration.md): dotted paths into a cassette, such as
 * {@code response.id} or {@code response.choices.*.message.tool_calls.*.id}, naming fields that change from
 * one recording to the next. A {@code *} segment matches every array element and every object property; a
 * number also matches that array index; any other segment matches the property of that name. Matched fields
 * are stripped before fingerprinting, comparing and committing, and randomized by the determinism check:
 * a matched property is removed, a matched array element is set to {@code null} instead, so that the elements
 * after it keep their indices. A path that matches nothing is not an error. Immutable and thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class VolatilePaths {

    private static final String REQUEST = "request";
    private static final String RESPONSE = "response";
    private static final Segment[][] NO_PATHS = new Segment[0][];

    private static final char[] RANDOM_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final List<String> paths;
    private final Segment[][] all;        // from the cassette's root
    private final Segment[][] inRequest;  // the request paths, from the request object
    private final Segment[][] inResponse; // the response paths, from the response body

    private VolatilePaths(List<String> paths, Segment[][] all) {
        this.paths = paths;
        this.all = all;
        this.inRequest = relativeTo(REQUEST, all);
        this.inResponse = relativeTo(RESPONSE, all);
    }

    /**
     * Compiles dotted paths.
     *
     * @throws IllegalArgumentException naming the path, when one is blank, has an empty segment ({@code a..b},
     *                                  {@code .a}, {@code a.}) or names a whole top-level part of the cassette
     */
    public static VolatilePaths of(List<String> paths) {
        List<String> copy = List.copyOf(paths);
        Segment[][] compiled = new Segment[copy.size()][];
        for (int i = 0; i < compiled.length; i++) {
            compiled[i] = compile(copy.get(i));
        }
        return new VolatilePaths(copy, compiled);
    }

    /** Whether any path reaches into the request (and so changes fingerprints). */
    public boolean touchesRequest() {
        return inRequest.length > 0;
    }

    /** Whether any path reaches into the response (and so into outcome values). */
    public boolean touchesResponse() {
        return inResponse.length > 0;
    }

    /** The paths as configured. */
    public List<String> paths() {
        return paths;
    }

    /**
     * Removes the fields the {@code request.} paths name from a request, in place.
     *
     * @return {@code request}
     */
    public ObjectNode stripRequest(ObjectNode request) {
        remove(request, inRequest);
        return request;
    }

    /**
     * Removes the fields the {@code response.} paths name from a response body (or an outcome's value, which
     * is one), in place; a scalar comes back as it is.
     *
     * @return {@code response}
     */
    public JsonNode stripResponse(JsonNode response) {
        remove(response, inResponse);
        return response;
    }

    /**
     * Removes every volatile field from a whole cassette ({@code request}, {@code response} and any other
     * part a path names), in place.
     *
     * @return {@code cassette}
     */
    public ObjectNode strip(ObjectNode cassette) {
        remove(cassette, all);
        return cassette;
    }

    /**
     * The volatile fields still present in a cassette, as concrete paths such as {@code response.id} or
     * {@code response.choices[0].message.tool_calls[1].id}, in path order and then document order, each once.
     * A property counts even when null; an array element only when not null (that is what stripping leaves).
     * Empty for a stripped cassette.
     */
    public List<String> remaining(ObjectNode cassette) {
        Set<String> found = new LinkedHashSet<>();
        StringBuilder at = new StringBuilder(64);
        for (Segment[] path : all) {
            collect(cassette, path, 0, at, found);
        }
        return List.copyOf(found);
    }

    /**
     * A copy of a response body in which every volatile field present holds a fresh random value of the
     * same JSON type: a string another string, an integer another integer, a float another double, a boolean a
     * random boolean; anything else (null, an object, an array) becomes a random string. Strings, integers and
     * floats always change. Only the objects and arrays on the way to a volatile field are copied; the rest of the
     * tree is {@code response}'s own, as an answer without volatile paths is handed to every run as it is.
     */
    public JsonNode randomizeResponse(JsonNode response, RandomGenerator random) {
        JsonNode copy = copyAlong(response, inResponse, 0);
        for (Segment[] path : inResponse) {
            randomize(copy, path, 0, random);
        }
        return copy;
    }

    /**
     * The response body without its volatile fields, as {@link #stripResponse} leaves a deep copy of it, for reading
     * only: the objects and arrays on the way to a volatile field are copied, the rest of the tree is shared with
     * {@code response}.
     */
    public JsonNode strippedResponse(JsonNode response) {
        if (inResponse.length == 0) {
            return response;
        }
        JsonNode copy = copyAlong(response, inResponse, 0);
        remove(copy, inResponse);
        return copy;
    }

    @Override
    public String toString() {
        return "VolatilePaths" + paths;
    }

    // --- walking ---------------------------------------------------------------------------------------------

    /**
     * A copy of {@code node} in which every object and array that {@code paths} reach from {@code depth} on is a
     * copy of its own and everything else is shared, so that what {@link #remove} and {@link #randomize} change in it
     * is the copy's alone. Scalars are immutable, and come back as they are.
     */
    private static JsonNode copyAlong(JsonNode node, Segment[][] paths, int depth) {
        if (node instanceof ObjectNode object) {
            // Every call of a run copies its answer's top so: members held in two arrays, and met without an entry
            // object each, as a LinkedHashMap and an iterator over the entries would make.
            SmallObjectMap.Members copy = new SmallObjectMap.Members();
            object.forEachEntry((name, child) -> {
                Segment[][] below = below(paths, depth, name, -1);
                copy.add(name, below.length == 0 ? child : copyAlong(child, below, depth + 1));
            });
            return copy.object();
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode(array.size());
            for (int i = 0; i < array.size(); i++) {
                Segment[][] below = below(paths, depth, null, i);
                copy.add(below.length == 0 ? array.get(i) : copyAlong(array.get(i), below, depth + 1));
            }
            return copy;
        }
        return node;
    }

    /**
     * The paths that go on below the property {@code key} of an object at {@code depth} (or, with a {@code null}
     * key, below element {@code index} of an array), as the walks below select them.
     */
    private static Segment[][] below(Segment[][] paths, int depth, String key, int index) {
        Segment[][] out = null;
        int n = 0;
        for (Segment[] path : paths) {
            if (depth + 1 >= path.length) {
                continue;
            }
            Segment segment = path[depth];
            if (segment.any() || (key != null ? segment.name().equals(key) : segment.index() == index)) {
                if (out == null) {
                    out = new Segment[paths.length][];
                }
                out[n++] = path;
            }
        }
        return out == null ? NO_PATHS : n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    private static void remove(JsonNode root, Segment[][] paths) {
        for (Segment[] path : paths) {
            remove(root, path, 0);
        }
    }

    private static void remove(JsonNode node, Segment[] path, int depth) {
        Segment segment = path[depth];
        boolean leaf = depth == path.length - 1;
        if (node instanceof ObjectNode object) {
            if (leaf) {
                if (segment.any()) {
                    object.removeAll();
                } else {
                    object.remove(segment.name());
                }
            } else if (segment.any()) {
                for (JsonNode child : object.values()) {
                    remove(child, path, depth + 1);
                }
            } else {
                JsonNode child = object.get(segment.name());
                if (child != null) {
                    remove(child, path, depth + 1);
                }
            }
        } else if (node instanceof ArrayNode array) {
            int from = segment.any() ? 0 : segment.index();
            int to = segment.any() ? array.size() : Math.min(segment.index() + 1, array.size());
            for (int i = Math.max(from, 0); i < to; i++) {
                if (leaf) {
                    // Nulled, not removed: removing would shift the next element into the volatile position.
                    array.set(i, NullNode.getInstance());
                } else {
                    remove(array.get(i), path, depth + 1);
                }
            }
        }
    }

    private static void collect(JsonNode node, Segment[] path, int depth, StringBuilder at, Set<String> found) {
        Segment segment = path[depth];
        boolean leaf = depth == path.length - 1;
        int mark = at.length();
        if (node instanceof ObjectNode object) {
            if (segment.any()) {
                for (Map.Entry<String, JsonNode> property : object.properties()) {
                    appendKey(property.getKey(), at);
                    visit(property.getValue(), path, depth, leaf, at, found);
                    at.setLength(mark);
                }
            } else {
                JsonNode child = object.get(segment.name());
                if (child != null) {
                    appendKey(segment.name(), at);
                    visit(child, path, depth, leaf, at, found);
                    at.setLength(mark);
                }
            }
        } else if (node instanceof ArrayNode array) {
            int from = segment.any() ? 0 : segment.index();
            int to = segment.any() ? array.size() : Math.min(segment.index() + 1, array.size());
            for (int i = Math.max(from, 0); i < to; i++) {
                JsonNode element = array.get(i);
                if (leaf && element.isNull()) {
                    continue;  // what strip leaves in an array
                }
                at.append('[').append(i).append(']');
                visit(element, path, depth, leaf, at, found);
                at.setLength(mark);
            }
        }
    }

    private static void visit(JsonNode child, Segment[] path, int depth, boolean leaf, StringBuilder at,
            Set<String> found) {
        if (leaf) {
            found.add(at.toString());
        } else {
            collect(child, path, depth + 1, at, found);
        }
    }

    /** {@code .name}, or {@code ["name"]} for a name that would not read back as one dotted segment. */
    private static void appendKey(String key, StringBuilder at) {
        if (isPlainName(key)) {
            if (!at.isEmpty()) {
                at.append('.');
            }
            at.append(key);
        } else {
            at.append('[');
            AsciiJson.appendString(key, at);
            at.append(']');
        }
    }

    private static boolean isPlainName(String key) {
        if (key.isEmpty() || key.equals("*")) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '.' || c == '[' || c == ']' || c == '"' || c < ' ' || c > '~') {
                return false;
            }
        }
        return true;
    }

    private static void randomize(JsonNode node, Segment[] path, int depth, RandomGenerator random) {
        Segment segment = path[depth];
        boolean leaf = depth == path.length - 1;
        if (node instanceof ObjectNode object) {
            if (segment.any()) {
                for (String key : object.propertyNames().toArray(new String[0])) {
                    if (leaf) {
                        object.set(key, randomLike(object.get(key), random));
                    } else {
                        randomize(object.get(key), path, depth + 1, random);
                    }
                }
            } else {
                JsonNode child = object.get(segment.name());
                if (child != null) {
                    if (leaf) {
                        object.set(segment.name(), randomLike(child, random));
                    } else {
                        randomize(child, path, depth + 1, random);
                    }
                }
            }
        } else if (node instanceof ArrayNode array) {
            int from = segment.any() ? 0 : segment.index();
            int to = segment.any() ? array.size() : Math.min(segment.index() + 1, array.size());
            for (int i = Math.max(from, 0); i < to; i++) {
                if (leaf) {
                    array.set(i, randomLike(array.get(i), random));
                } else {
                    randomize(array.get(i), path, depth + 1, random);
                }
            }
        }
    }

    private static JsonNode randomLike(JsonNode old, RandomGenerator random) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (old.isIntegralNumber()) {
            if (old.canConvertToInt()) {
                int value;
                do {
                    value = random.nextInt(0, Integer.MAX_VALUE);
                } while (value == old.intValue());
                return nodes.numberNode(value);
            }
            long value;
            do {
                value = random.nextLong(0, Long.MAX_VALUE);
            } while (old.canConvertToLong() && value == old.longValue());
            return nodes.numberNode(value);
        }
        if (old.isNumber()) {
            double value;
            do {
                value = random.nextDouble();
            } while (value == old.doubleValue());
            return nodes.numberNode(value);
        }
        if (old.isBoolean()) {
            return nodes.booleanNode(random.nextBoolean());
        }
        String previous = old.isString() ? old.stringValue() : null;
        String value;
        do {
            char[] chars = new char[16];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = RANDOM_CHARS[random.nextInt(RANDOM_CHARS.length)];
            }
            value = new String(chars);
        } while (value.equals(previous));
        return nodes.stringNode(value);
    }

    // --- compiling -------------------------------------------------------------------------------------------

    /** One step of a path: {@code *}, or a name that, if all digits, is also an array index. */
    private record Segment(String name, int index, boolean any) {
    }

    private static Segment[] compile(String path) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("a volatile path is empty; write it as dotted names, like"
                    + " response.id");
        }
        String[] parts = path.split("\\.", -1);
        if (parts.length < 2) {
            throw new IllegalArgumentException("volatile path \"" + path + "\" names a whole part of the cassette;"
                    + " name a field inside it, like response.id");
        }
        Segment[] segments = new Segment[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty()) {
                throw new IllegalArgumentException("volatile path \"" + path + "\" has an empty segment; write it"
                        + " as dotted names, like response.choices.*.message.tool_calls.*.id");
            }
            segments[i] = new Segment(part, index(part), part.equals("*"));
        }
        return segments;
    }

    /** The array index a segment names, or -1 when it is not a plain non-negative int. */
    private static int index(String part) {
        if (part.length() > 9) {
            return -1;
        }
        for (int i = 0; i < part.length(); i++) {
            if (part.charAt(i) < '0' || part.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(part);
    }

    /** The paths whose first segment reaches {@code part} of the cassette, without that segment. */
    private static Segment[][] relativeTo(String part, Segment[][] paths) {
        List<Segment[]> relative = new ArrayList<>();
        for (Segment[] path : paths) {
            if (path[0].any() || path[0].name().equals(part)) {
                Segment[] rest = new Segment[path.length - 1];
                System.arraycopy(path, 1, rest, 0, rest.length);
                relative.add(rest);
            }
        }
        return relative.toArray(new Segment[0][]);
    }
}
