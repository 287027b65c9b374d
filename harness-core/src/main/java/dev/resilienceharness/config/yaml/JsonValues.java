package dev.resilienceharness.config.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigMessages;
import java.math.BigInteger;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a YAML value into the JSON value it spells, for the {@code requests:} of {@code resilience.yaml}: text to
 * strings, integers to int, long or big-integer nodes by size, floats to doubles, booleans, null, lists to arrays
 * and mappings to objects in key order.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class JsonValues {

    /** Integers with more digits than this are refused rather than parsed: nobody's request needs them. */
    static final int MAX_INTEGER_DIGITS = 1000;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonValues() {
    }

    /** Whether {@code node} spells a JSON object: a mapping, or one read as JSON already. */
    public static boolean spellsObject(YamlNode node) {
        return node instanceof YamlNode.Mapping || node instanceof YamlNode.Json;
    }

    /** The JSON object a mapping spells; anything else is an error saying it must be {@code what}. */
    public static ObjectNode object(NodeReader r, YamlNode node, String path, String what) throws ConfigException {
        if (!spellsObject(node)) {
            throw r.wrongType(node, path, what, "write {} for an empty object");
        }
        return (ObjectNode) value(r, node, path);
    }

    /** The JSON value {@code node} spells. */
    public static JsonNode value(NodeReader r, YamlNode node, String path) throws ConfigException {
        return value(r, node, new Where(null, path, -1));
    }

    /**
     * Where a value sits: its key (or its index, with a {@code null} key) in its parent's. Spelled out as a path only
     * for an error, so that reading ten thousand requests builds no path text.
     */
    private record Where(Where parent, String key, int index) {

        String path() {
            if (parent == null) {
                return key;
            }
            return key != null ? NodeReader.child(parent.path(), key) : NodeReader.index(parent.path(), index);
        }
    }

    private static JsonNode value(NodeReader r, YamlNode node, Where where) throws ConfigException {
        if (node instanceof YamlNode.Json json) {
            return json.value();
        }
        if (node instanceof YamlNode.Mapping m) {
            ObjectNode object = NODES.objectNode();
            for (YamlNode.Entry e : m.entries()) {
                object.set(e.key(), value(r, e.value(), new Where(where, e.key(), -1)));
            }
            return object;
        }
        if (node instanceof YamlNode.Sequence s) {
            ArrayNode array = NODES.arrayNode();
            List<YamlNode> items = s.items();
            for (int i = 0; i < items.size(); i++) {
                array.add(value(r, items.get(i), new Where(where, null, i)));
            }
            return array;
        }
        YamlNode.Scalar scalar = (YamlNode.Scalar) node;
        JsonNode json = scalar(scalar.text(), scalar.type());
        if (json != null) {
            return json;
        }
        throw r.error(node, where.path(), scalar.type() == YamlNode.ScalarType.INTEGER
                ? ConfigMessages.integerTooLong(MAX_INTEGER_DIGITS) : ConfigMessages.notFinite(scalar.text()));
    }

    /**
     * The JSON value of a scalar of {@code type} written {@code text}; {@code null} for what no request may hold: an
     * integer of more than {@value #MAX_INTEGER_DIGITS} digits, a float that is not finite.
     */
    static JsonNode scalar(String text, YamlNode.ScalarType type) {
        return switch (type) {
            case STRING -> NODES.stringNode(text);
            case BOOLEAN -> NODES.booleanNode(Boolean.parseBoolean(text));
            case NULL -> NODES.nullNode();
            case INTEGER -> text.length() > MAX_INTEGER_DIGITS ? null : integer(text);
            case FLOAT -> {
                double d = parseDouble(text);
                yield Double.isNaN(d) || Double.isInfinite(d) ? null : NODES.numberNode(d);
            }
        };
    }

    /** YAML's {@code .inf} and {@code .nan} are not Java's spelling; both end up refused as not finite. */
    private static double parseDouble(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static JsonNode integer(String text) {
        if (text.length() <= 9) {
            // Nine digits with their sign, if any, always fit an int.
            return NODES.numberNode(Integer.parseInt(text));
        }
        BigInteger value = new BigInteger(text);
        if (value.bitLength() < 32) {
            return NODES.numberNode(value.intValue());
        }
        if (value.bitLength() < 64) {
            return NODES.numberNode(value.longValue());
        }
        return NODES.numberNode(value);
    }
}
