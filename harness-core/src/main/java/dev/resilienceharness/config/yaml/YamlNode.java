package dev.resilienceharness.config.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node of a parsed YAML document that remembers where it was written, so every configuration error can
 * name its line and column. Aliases are resolved to the node they refer to (shared, not copied).
 */
@API(status = INTERNAL, since = "0.1.0")
public sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping, YamlNode.Json {

    /** 1-based line of the node's first character. */
    int line();

    /** 1-based column of the node's first character. */
    int column();

    /** How many nodes this one stands for once every alias inside it is expanded (itself included). */
    long weight();

    /** How many levels of lists and mappings this node holds, itself included (a scalar holds 0). */
    int height();

    /** The node in words for an error message: {@code a list}, {@code the text 'fast'}, {@code the number 3}. */
    String describe();

    /**
     * What kind of node this is, without its content: for a file that is not what it should be (a {@code .netrc}
     * named as a config), whose text must not reach a build log.
     */
    default String kind() {
        if (this instanceof Scalar s) {
            return switch (s.type()) {
                case STRING -> "a text";
                case INTEGER, FLOAT -> "a number";
                case BOOLEAN -> "a boolean";
                case NULL -> "nothing (null)";
            };
        }
        return describe();
    }

    /** What YAML's JSON schema made of a plain scalar; a quoted scalar is always {@link #STRING}. */
    enum ScalarType {
        STRING, INTEGER, FLOAT, BOOLEAN, NULL
    }

    /**
     * A scalar: its text exactly as the document gave it (quotes removed, escapes decoded) and its type.
     *
     * @param text the scalar's value text; empty for an empty value
     */
    record Scalar(String text, ScalarType type, int line, int column) implements YamlNode {

        public Scalar {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(type, "type");
        }

        public boolean isNull() {
            return type == ScalarType.NULL;
        }

        @Override
        public long weight() {
            return 1;
        }

        @Override
        public int height() {
            return 0;
        }

        @Override
        public String describe() {
            return switch (type) {
                case STRING -> "the text '" + abbreviate(text) + "'";
                case INTEGER, FLOAT -> "the number " + abbreviate(text);
                case BOOLEAN -> "the boolean " + text;
                case NULL -> "nothing (null)";
            };
        }
    }

    /** A list; {@code items} in document order. */
    record Sequence(List<YamlNode> items, int line, int column, long weight, int height) implements YamlNode {

        public Sequence(List<YamlNode> items, int line, int column) {
            this(items, line, column, weightOfItems(items), 1 + heightOfItems(items));
        }

        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return items.isEmpty() ? "an empty list" : "a list";
        }
    }

    /** A mapping; {@code entries} in document order, keys unique. */
    record Mapping(List<Entry> entries, int line, int column, long weight, int height) implements YamlNode {

        public Mapping(List<Entry> entries, int line, int column) {
            this(entries, line, column, weightOfEntries(entries), 1 + heightOfEntries(entries));
        }

        public Mapping {
            entries = List.copyOf(entries);
        }

        /** The entry for {@code key}, or {@code null}. */
        public Entry entry(String key) {
            for (Entry e : entries) {
                if (e.key().equals(key)) {
                    return e;
                }
            }
            return null;
        }

        /** The value for {@code key}, or {@code null} when the key is absent. */
        public YamlNode get(String key) {
            Entry e = entry(key);
            return e == null ? null : e.value();
        }

        @Override
        public String describe() {
            return entries.isEmpty() ? "an empty mapping" : "a mapping";
        }
    }

    /**
     * A one-line flow mapping read straight into the JSON object it spells, as {@link JsonValues} would turn the
     * {@link Mapping} into it: only the values of {@code requests:} in a resilience.yaml, whose nodes inside nothing
     * reports on (see {@link YamlReader#read(java.nio.file.Path, byte[], String)}). It is located at its opening brace.
     * A JSON value holds no alias: its weight is one node for each of its values; the reader counts both as it reads.
     */
    record Json(ObjectNode value, int line, int column, long weight, int height) implements YamlNode {

        /** The JSON object {@code value}, with its weight and height taken from a walk of its tree. */
        public Json(ObjectNode value, int line, int column) {
            this(value, line, column, weightOf(value), heightOf(value));
        }

        public Json {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String describe() {
            return value.isEmpty() ? "an empty mapping" : "a mapping";
        }

        private static long weightOf(JsonNode node) {
            long sum = 1;
            for (JsonNode child : node.values()) {
                sum = plus(sum, weightOf(child));
            }
            return sum;
        }

        private static int heightOf(JsonNode node) {
            if (!node.isContainer()) {
                return 0;
            }
            int max = 0;
            for (JsonNode child : node.values()) {
                max = Math.max(max, heightOf(child));
            }
            return 1 + max;
        }
    }

    /** One key of a mapping, located at the key, with its value. */
    record Entry(String key, int line, int column, YamlNode value) {

        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Shortens a long text for a message, so one bad value cannot flood a build log. */
    static String abbreviate(String text) {
        int max = 60;
        if (text.length() <= max) {
            return text;
        }
        if (Character.isHighSurrogate(text.charAt(max - 1))) {
            max--;
        }
        return text.substring(0, max) + "...";
    }

    /** One for the collection plus its children's weights, saturating: alias expansion can be exponential. */
    private static long weightOfItems(List<YamlNode> items) {
        long sum = 1;
        for (YamlNode item : items) {
            sum = plus(sum, item.weight());
        }
        return sum;
    }

    private static long weightOfEntries(List<Entry> entries) {
        long sum = 1;
        for (Entry e : entries) {
            sum = plus(sum, e.value().weight());
        }
        return sum;
    }

    private static long plus(long sum, long w) {
        return sum > Long.MAX_VALUE - w ? Long.MAX_VALUE : sum + w;
    }

    /** The greatest height among the children; 0 for none. */
    private static int heightOfItems(List<YamlNode> items) {
        int max = 0;
        for (YamlNode item : items) {
            max = Math.max(max, item.height());
        }
        return max;
    }

    private static int heightOfEntries(List<Entry> entries) {
        int max = 0;
        for (Entry e : entries) {
            max = Math.max(max, e.value().height());
        }
        return max;
    }
}
