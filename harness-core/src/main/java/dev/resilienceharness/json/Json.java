package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * The project's one JSON mapper, as strict as Python's {@code json.loads}: a duplicate key, {@code NaN},
 * {@code Infinity}, trailing content or an empty input is an error; integers read as int, long or BigInteger
 * and other numbers as double, so a value read here fingerprints exactly as Python would fingerprint it.
 * Two differences remain: Jackson refuses a lone surrogate escape in a property name, which Python accepts, and
 * reads a float literal beyond the double range (as Python does) as an infinity that has no canonical form.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Json {

    // Python refuses to convert integers longer than this (sys.int_info.default_max_str_digits).
    private static final int MAX_NUMBER_LENGTH = 4300;

    /**
     * The limits every reader of a cassette keeps to (numbers of up to 4300 digits, Jackson's 500 levels of nesting),
     * so that a file gets the same verdict in every goal.
     */
    public static final StreamReadConstraints READ_CONSTRAINTS = StreamReadConstraints.builder()
            .maxNumberLength(MAX_NUMBER_LENGTH)
            .build();

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .streamReadConstraints(READ_CONSTRAINTS)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    // Made once: the mapper would look the target type up again on every call.
    private static final ObjectReader TREE_READER = MAPPER.readerFor(JsonNode.class);

    private Json() {
    }

    /**
     * The limit of {@link #READ_CONSTRAINTS} that Jackson's {@code message} says was met, as a person reads it, or
     * {@code null} when the message is about something else.
     */
    public static String limitMet(String message) {
        if (message == null) {
            return null;
        }
        if (message.startsWith("Document nesting depth")) {
            return "it nests deeper than " + READ_CONSTRAINTS.getMaxNestingDepth() + " levels";
        }
        if (message.startsWith("Number value length")) {
            return "a number is longer than " + MAX_NUMBER_LENGTH + " digits";
        }
        if (message.startsWith("String value length")) {
            return "a string is longer than " + READ_CONSTRAINTS.getMaxStringLength() + " characters";
        }
        return null;
    }

    /** The shared strict mapper (immutable and thread-safe). */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    /**
     * Parses one JSON document.
     *
     * @throws JacksonException when the bytes are not exactly one JSON value, or an object repeats a key
     */
    public static JsonNode readTree(byte[] json) {
        return TREE_READER.readValue(json);
    }

    /**
     * Parses one JSON document.
     *
     * @throws JacksonException as {@link #readTree(byte[])}
     */
    public static JsonNode readTree(String json) {
        return TREE_READER.readValue(json);
    }

    /** {@code json} read as {@link #readTree(String)} does, or {@code null} when it is not JSON. */
    public static JsonNode readTreeOrNull(String json) {
        try {
            return readTree(json);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The text of a cassette file: what Python's {@code json.dumps(obj, indent=2)} prints, keys in insertion
     * order, non-ASCII escaped as {@code \}{@code uXXXX}, without a final newline.
     *
     * @throws IllegalArgumentException for a NaN or infinite number, or a node that is not plain JSON
     */
    public static String prettyPrint(JsonNode node) {
        return IndentedJson.write(node);
    }

    /** One line of compact JSON, keys in insertion order (journal records, report entries). */
    public static String compact(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }
}
