package dev.resilienceharness.config.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigMessages;
import dev.resilienceharness.config.DidYouMean;
import dev.resilienceharness.config.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Takes typed values out of a {@link YamlNode} tree strictly: every wrong type, unknown key, missing key or bad
 * number becomes a {@link ConfigException} at the node's line and column, under its dotted key path
 * ({@code scenarios[2].policy.max_attempts}; list indexes count from 0).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class NodeReader {

    /** How a duration is described when a value is not one. */
    static final String DURATION = "a duration such as 10ms, 2s, 1m or a plain number of seconds";

    private final Path file;

    public NodeReader(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    public Path file() {
        return file;
    }

    /** The path of {@code key} inside {@code path}. */
    public static String child(String path, String key) {
        // A key is shortened as any quoted value is: a pasted megabyte must not become one log line.
        String shown = YamlNode.abbreviate(key);
        return path == null || path.isEmpty() ? shown : path + "." + shown;
    }

    /** The path of item {@code i} of the list at {@code path}. */
    public static String index(String path, int i) {
        return path + "[" + i + "]";
    }

    /** An error at {@code node}. */
    public ConfigException error(YamlNode node, String path, String detail) {
        return new ConfigException(file, node.line(), node.column(), path, detail);
    }

    /** An error at the key of {@code entry}. */
    public ConfigException error(YamlNode.Entry entry, String path, String detail) {
        return new ConfigException(file, entry.line(), entry.column(), path, detail);
    }

    /**
     * {@code node} as a mapping whose keys are all in {@code allowed}; an unknown key is reported at that key with
     * a "did you mean" for a near miss and the list of allowed keys.
     *
     * @param what the mapping in words, for a wrong type ({@code "a mapping of policy settings"})
     */
    public YamlNode.Mapping mapping(YamlNode node, String path, String what, List<String> allowed)
            throws ConfigException {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            throw wrongType(node, path, what, "write {} for an empty mapping");
        }
        for (YamlNode.Entry e : mapping.entries()) {
            if (!allowed.contains(e.key())) {
                throw error(e, child(path, e.key()),
                        ConfigMessages.unknownKey(e.key(), DidYouMean.suggest(e.key(), allowed), allowed));
            }
        }
        return mapping;
    }

    /** The value of a key that must be present, reported at the mapping when it is not. */
    public YamlNode require(YamlNode.Mapping mapping, String path, String key, String what) throws ConfigException {
        YamlNode value = mapping.get(key);
        if (value == null) {
            throw error(mapping, child(path, key), ConfigMessages.missingKey(key, what));
        }
        return value;
    }

    /** {@code node} as a list. */
    public List<YamlNode> list(YamlNode node, String path, String what) throws ConfigException {
        if (!(node instanceof YamlNode.Sequence sequence)) {
            throw wrongType(node, path, what, "write [] for an empty list");
        }
        return sequence.items();
    }

    /** {@code node} as a list with at least one item. */
    public List<YamlNode> nonEmptyList(YamlNode node, String path, String what) throws ConfigException {
        List<YamlNode> items = list(node, path, what);
        if (items.isEmpty()) {
            throw error(node, path, ConfigMessages.emptyList(what));
        }
        return items;
    }

    /** {@code node} as text: a quoted or plain scalar that YAML does not read as a number, boolean or null. */
    public String text(YamlNode node, String path, String what) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            return s.text();
        }
        throw wrongType(node, path, what, null);
    }

    /** {@code node} as text with at least one non-blank character. */
    public String nonBlankText(YamlNode node, String path, String what) throws ConfigException {
        String text = text(node, path, what);
        if (text.isBlank()) {
            throw error(node, path, ConfigMessages.expected(what, "an empty text"));
        }
        return text;
    }

    /**
     * {@code node}'s text as written when it is text or a number ({@code 1.5} gives {@code "1.5"}); {@code null} for
     * a null value.
     */
    public String sourceText(YamlNode node, String path, String what) throws ConfigException {
        if (node instanceof YamlNode.Scalar s) {
            switch (s.type()) {
                case STRING, INTEGER, FLOAT:
                    return s.text();
                case NULL:
                    return null;
                default:
                    break;
            }
        }
        throw wrongType(node, path, what, null);
    }

    /** {@code node} as one of the texts {@code values}, with a "did you mean" for a near miss. */
    public String oneOf(YamlNode node, String path, List<String> values) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING && values.contains(s.text())) {
            return s.text();
        }
        String suggestion = node instanceof YamlNode.Scalar s ? DidYouMean.suggest(s.text(), values) : null;
        throw error(node, path, ConfigMessages.oneOf(values, suggestion, node.describe()));
    }

    /** {@code node} as an integer of at least {@code min} that fits in an {@code int}. */
    public int integer(YamlNode node, String path, int min) throws ConfigException {
        String what = "an integer of at least " + min;
        if (!(node instanceof YamlNode.Scalar s) || s.type() != YamlNode.ScalarType.INTEGER) {
            throw wrongType(node, path, what, null);
        }
        String digits = s.text();
        if (digits.startsWith("-")) {
            throw error(node, path, ConfigMessages.integerTooSmall(min, digits));
        }
        // The JSON schema's integers are plain decimal digits; more than 10 of them cannot fit in an int.
        if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
            throw error(node, path, ConfigMessages.tooLargeInteger(digits));
        }
        int value = Integer.parseInt(digits);
        if (value < min) {
            throw error(node, path, ConfigMessages.integerTooSmall(min, digits));
        }
        return value;
    }

    /**
     * {@code node} as a duration (see {@link Durations}): text such as {@code 10ms}, or a number of seconds
     * written plain ({@code 0.25}) or quoted ({@code "2"}).
     */
    public Duration duration(YamlNode node, String path) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && (s.type() == YamlNode.ScalarType.STRING
                || s.type() == YamlNode.ScalarType.INTEGER || s.type() == YamlNode.ScalarType.FLOAT)) {
            try {
                return Durations.parse(s.text());
            } catch (IllegalArgumentException e) {
                throw error(node, path, e.getMessage());
            }
        }
        throw wrongType(node, path, DURATION, null);
    }

    /**
     * An error saying {@code node} is not {@code what}; for a null value, {@code fixForNull} (when given) says
     * what to write instead.
     */
    public ConfigException wrongType(YamlNode node, String path, String what, String fixForNull) {
        if (fixForNull != null && node instanceof YamlNode.Scalar s && s.isNull()) {
            return error(node, path, ConfigMessages.nullNotAllowed(what, fixForNull));
        }
        return error(node, path, ConfigMessages.expected(what, node.describe()));
    }
}
