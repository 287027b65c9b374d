package dev.resilienceharness.config.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigMessages;
import dev.resilienceharness.json.StrictUtf8;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLFactoryBuilder;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads one YAML document into a {@link YamlNode} tree that keeps every node's line and column, refusing what a
 * configuration file never needs and an attacker might send: more than {@value #MAX_BYTES} bytes, bytes that are
 * not UTF-8, duplicate keys, more than one document, nesting deeper than {@value #MAX_DEPTH} levels, and aliases
 * beyond {@value #MAX_COLLECTION_ALIASES} to collections or expanding to more than {@value #MAX_ALIAS_EXPANSION}
 * values (a "billion laughs" file fails at its first few aliases).
 *
 * <p>Parsing uses Jackson's streaming {@link YAMLParser} on snakeyaml-engine, whose events carry the marks. The
 * streaming parser never expands aliases itself, so the limits on them are enforced here while the tree is built;
 * an alias shares the anchored node rather than copying it. Scalars are typed by YAML 1.2's JSON schema: plain
 * {@code 3} is an integer, {@code 0.25} a float, {@code true}/{@code false} booleans, {@code null} and an empty
 * value null, everything else (including {@code yes}, {@code ~} and anything quoted) text.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class YamlReader {

    /** The largest file read: 4 MiB. */
    public static final int MAX_BYTES = 4 * 1024 * 1024;
    /** The deepest nesting of lists and mappings, aliases expanded. */
    public static final int MAX_DEPTH = 64;
    /** The most aliases that may refer to a list or a mapping. */
    public static final int MAX_COLLECTION_ALIASES = 50;
    /** The most values all aliases together may stand for. */
    public static final long MAX_ALIAS_EXPANSION = 100_000;
    /**
     * The most characters of text (keys and scalars) all aliases together may stand for: a few large anchored
     * strings aliased often would otherwise expand, when the tree is turned into JSON, far beyond any heap.
     */
    public static final long MAX_ALIAS_TEXT = MAX_BYTES;

    private static final String CORE_TAG = "tag:yaml.org,2002:";
    private static final Set<String> SCALAR_TAGS = Set.of("!", CORE_TAG + "str");
    private static final Set<String> COLLECTION_TAGS = Set.of("!", CORE_TAG + "map", CORE_TAG + "seq");

    /**
     * A factory for one text. snakeyaml-engine copies its whole window of unread text for every buffer it reads,
     * so a buffer smaller than the text makes a long line cost quadratic time; one that holds the whole text
     * (at most 4 MiB) keeps reading linear.
     */
    private static EventYamlFactory factory(int length) {
        return new EventYamlFactory(YAMLFactory.builder()
                .loadSettings(LoadSettings.builder()
                        // Duplicates are found while building the tree, so both lines can be named.
                        .setAllowDuplicateKeys(true)
                        // The streaming parser never composes, so these two are a second line of defence: the
                        // tree builder enforces both the alias limits and the size.
                        .setMaxAliasesForCollections(MAX_COLLECTION_ALIASES)
                        .setCodePointLimit(MAX_BYTES)
                        .setBufferSize(Math.max(1024, length + 1))
                        .setUseMarks(true)
                        .build())
                .streamReadConstraints(StreamReadConstraints.builder()
                        // One more level than ours, so our message is the one a user sees.
                        .maxNestingDepth(MAX_DEPTH + 1)
                        .maxDocumentLength(MAX_BYTES)
                        .build()));
    }

    private final Path file;
    private final String text;
    private final Map<String, YamlNode> anchors = new HashMap<>();
    private int collectionAliases;
    private long aliasExpansion;
    private long aliasText;
    /** The text length of each anchored collection, measured once however often it is aliased. */
    private final Map<YamlNode, Long> textLengths = new IdentityHashMap<>();
    private EventParser parser;

    private YamlReader(Path file, String text) {
        this.file = file;
        this.text = text;
    }

    /**
     * The document in {@code content}, or {@code null} when it holds no document at all (empty, or only
     * comments).
     *
     * @param file named in every error; never opened
     */
    public static YamlNode read(Path file, byte[] content) throws ConfigException {
        return read(file, content, null);
    }

    /**
     * As {@link #read(Path, byte[])}; when the document has the plain shape {@link SubsetYamlReader} reads, the values
     * of the mapping under the root's {@code jsonKey} (a resilience.yaml's {@code requests}) that are one-line flow
     * mappings come as {@link YamlNode.Json}, the JSON objects {@link JsonValues} would make of them, rather than as
     * trees. Otherwise, and for every other node, the tree is the same.
     */
    public static YamlNode read(Path file, byte[] content, String jsonKey) throws ConfigException {
        if (content.length > MAX_BYTES) {
            throw new ConfigException(file, 0, 0, null, ConfigMessages.tooLarge(content.length));
        }
        // The plain ASCII shape most files have is read directly; anything else, and every error, is
        // snakeyaml-engine's.
        YamlNode plain = SubsetYamlReader.read(content, jsonKey);
        if (plain != null) {
            return plain;
        }
        String text = decode(file, content);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        return readFully(file, text);
    }

    /** The document in {@code text} as snakeyaml-engine reads it, whatever its shape. */
    static YamlNode readFully(Path file, String text) throws ConfigException {
        return new YamlReader(file, text).document();
    }

    private static String decode(Path file, byte[] content) throws ConfigException {
        StrictUtf8.Decoded decoded = StrictUtf8.decode(content);
        StrictUtf8.Malformed bad = decoded.malformed();
        if (bad != null) {
            throw new ConfigException(file, bad.line(), bad.column(), null, ConfigMessages.notUtf8(bad.badByte()));
        }
        return decoded.text();
    }

    private YamlNode document() throws ConfigException {
        try (EventParser p = (EventParser) factory(text.length())
                .createParser(ObjectReadContext.empty(), new StringReader(text))) {
            parser = p;
            JsonToken first = p.nextToken();
            if (first == null) {
                return null;
            }
            YamlNode root = value(first, "", 0);
            if (p.nextToken() != null) {
                throw error(p.lastEvent(), null, ConfigMessages.secondDocument());
            }
            return root;
        } catch (JacksonException | YamlEngineException e) {
            throw translate(e);
        }
    }

    private YamlNode value(JsonToken token, String path, int depth) throws ConfigException {
        Event event = parser.lastEvent();
        if (token == null) {
            // Only a scalar Jackson cannot type (a tagged one) ends the stream inside a collection.
            throw error(event, path, ConfigMessages.syntax("this value cannot be read"));
        }
        return switch (token) {
            case START_OBJECT -> mapping(event, path, depth + 1);
            case START_ARRAY -> sequence(event, path, depth + 1);
            case VALUE_STRING -> parser.isCurrentAlias() ? alias((AliasEvent) event, path, depth)
                    : scalar(event, path, YamlNode.ScalarType.STRING);
            case VALUE_NUMBER_INT -> scalar(event, path, YamlNode.ScalarType.INTEGER);
            case VALUE_NUMBER_FLOAT -> scalar(event, path, YamlNode.ScalarType.FLOAT);
            case VALUE_TRUE, VALUE_FALSE -> scalar(event, path, YamlNode.ScalarType.BOOLEAN);
            case VALUE_NULL -> scalar(event, path, YamlNode.ScalarType.NULL);
            default -> throw error(event, path, unsupportedTag(event));
        };
    }

    private YamlNode.Mapping mapping(Event start, String path, int depth) throws ConfigException {
        checkDepth(start, path, depth);
        checkTag(start, path, COLLECTION_TAGS);
        List<YamlNode.Entry> entries = new ArrayList<>();
        Map<String, YamlNode.Entry> seen = new HashMap<>();
        JsonToken t;
        while ((t = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            Event keyEvent = parser.lastEvent();
            int line = line(keyEvent);
            int column = column(keyEvent);
            String keyPath = path.isEmpty() ? key : path + "." + key;
            YamlNode.Entry first = seen.get(key);
            if (first != null) {
                throw new ConfigException(file, line, column, keyPath,
                        ConfigMessages.duplicateKey(key, first.line(), first.column(), line, column));
            }
            YamlNode value = value(parser.nextToken(), keyPath, depth);
            YamlNode.Entry entry = new YamlNode.Entry(key, line, column, value);
            seen.put(key, entry);
            entries.add(entry);
        }
        if (t != JsonToken.END_OBJECT) {
            throw error(parser.lastEvent(), path, ConfigMessages.syntax("this mapping does not end"));
        }
        return anchored(start, new YamlNode.Mapping(entries, line(start), column(start)));
    }

    private YamlNode.Sequence sequence(Event start, String path, int depth) throws ConfigException {
        checkDepth(start, path, depth);
        checkTag(start, path, COLLECTION_TAGS);
        List<YamlNode> items = new ArrayList<>();
        JsonToken t;
        while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
            items.add(value(t, path + "[" + items.size() + "]", depth));
        }
        return anchored(start, new YamlNode.Sequence(items, line(start), column(start)));
    }

    private YamlNode.Scalar scalar(Event event, String path, YamlNode.ScalarType type) throws ConfigException {
        checkTag(event, path, SCALAR_TAGS);
        ScalarEvent scalar = (ScalarEvent) event;
        return anchored(event, new YamlNode.Scalar(scalar.getValue(), type, line(event), column(event)));
    }

    private YamlNode alias(AliasEvent event, String path, int depth) throws ConfigException {
        String name = event.getAlias().getValue();
        YamlNode target = anchors.get(name);
        if (target == null) {
            throw error(event, path, ConfigMessages.unknownAnchor(name));
        }
        if (target.height() > 0 && ++collectionAliases > MAX_COLLECTION_ALIASES) {
            throw error(event, path, ConfigMessages.tooManyAliases(MAX_COLLECTION_ALIASES));
        }
        aliasExpansion = target.weight() > MAX_ALIAS_EXPANSION ? MAX_ALIAS_EXPANSION + 1
                : aliasExpansion + target.weight();
        if (aliasExpansion > MAX_ALIAS_EXPANSION) {
            throw error(event, path, ConfigMessages.aliasExpansion(MAX_ALIAS_EXPANSION));
        }
        aliasText = Math.min(aliasText + textLength(target), MAX_ALIAS_TEXT + 1);
        if (aliasText > MAX_ALIAS_TEXT) {
            throw error(event, path, ConfigMessages.aliasText(MAX_ALIAS_TEXT));
        }
        checkDepth(event, path, depth + target.height());
        return target;
    }

    /** The characters of the keys and scalars {@code node} stands for, aliases in it expanded; saturating. */
    private long textLength(YamlNode node) {
        if (node instanceof YamlNode.Scalar s) {
            return s.text().length();
        }
        Long known = textLengths.get(node);
        if (known != null) {
            return known;
        }
        long sum = 0;
        if (node instanceof YamlNode.Sequence seq) {
            for (YamlNode item : seq.items()) {
                sum = Math.min(sum + textLength(item), Long.MAX_VALUE / 2);
            }
        } else if (node instanceof YamlNode.Mapping map) {
            for (YamlNode.Entry e : map.entries()) {
                sum = Math.min(sum + e.key().length() + textLength(e.value()), Long.MAX_VALUE / 2);
            }
        } else {
            sum = node.weight();
        }
        textLengths.put(node, sum);
        return sum;
    }

    private <T extends YamlNode> T anchored(Event event, T node) {
        Optional<Anchor> anchor = event instanceof ScalarEvent s ? s.getAnchor()
                : event instanceof CollectionStartEvent c ? c.getAnchor() : Optional.empty();
        // A redefined anchor replaces the earlier one for later aliases, as YAML says.
        anchor.ifPresent(a -> anchors.put(a.getValue(), node));
        return node;
    }

    private void checkDepth(Event event, String path, int depth) throws ConfigException {
        if (depth > MAX_DEPTH) {
            throw error(event, path, ConfigMessages.tooDeep(MAX_DEPTH));
        }
    }

    private void checkTag(Event event, String path, Set<String> allowed) throws ConfigException {
        Optional<String> tag = event instanceof ScalarEvent s ? s.getTag()
                : event instanceof CollectionStartEvent c ? c.getTag() : Optional.empty();
        if (tag.isPresent() && !allowed.contains(tag.get())) {
            throw error(event, path, unsupportedTag(event));
        }
    }

    private static String unsupportedTag(Event event) {
        Optional<String> tag = event instanceof ScalarEvent s ? s.getTag()
                : event instanceof CollectionStartEvent c ? c.getTag() : Optional.empty();
        String written = tag.map(t -> t.startsWith(CORE_TAG) ? "!!" + t.substring(CORE_TAG.length()) : t)
                .orElse("?");
        return ConfigMessages.unsupportedTag(written);
    }

    private ConfigException error(Event event, String path, String detail) {
        return new ConfigException(file, line(event), column(event), path == null || path.isEmpty() ? null : path,
                detail);
    }

    private static int line(Event event) {
        return event == null ? 0 : event.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    private static int column(Event event) {
        return event == null ? 0 : event.getStartMark().map(m -> m.getColumn() + 1).orElse(0);
    }

    /** Turns a parser failure into an error at the place it names, keeping the parser's own words. */
    private ConfigException translate(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYamlEngineException marked) {
                Optional<Mark> mark = marked.getProblemMark().or(marked::getContextMark);
                String problem = marked.getProblem() == null || marked.getProblem().isBlank()
                        ? marked.getContext() : marked.getProblem();
                if (marked.getContext() != null && !marked.getContext().isBlank()
                        && !marked.getContext().equals(problem)) {
                    problem = problem + " (" + marked.getContext() + ")";
                }
                return new ConfigException(file, mark.map(m -> m.getLine() + 1).orElse(0),
                        mark.map(m -> m.getColumn() + 1).orElse(0), null, ConfigMessages.syntax(problem));
            }
            if (t instanceof ReaderException reader) {
                int[] at = position(reader.getPosition());
                return new ConfigException(file, at[0], at[1], null,
                        ConfigMessages.forbiddenCharacter(reader.getCodePoint()));
            }
        }
        Event last = parser == null ? null : parser.lastEvent();
        int line = line(last);
        int column = column(last);
        if (line == 0 && e instanceof JacksonException je && je.getLocation() != null) {
            TokenStreamLocation loc = je.getLocation();
            line = Math.max(loc.getLineNr(), 0);
            column = Math.max(loc.getColumnNr(), 0);
        }
        String message = e instanceof JacksonException je ? je.getOriginalMessage() : e.getMessage();
        if (e instanceof StreamConstraintsException) {
            return new ConfigException(file, line, column, null, ConfigMessages.tooBig(message));
        }
        if (message != null && message.startsWith("Expected a property name")) {
            return new ConfigException(file, line, column, null, ConfigMessages.complexKey());
        }
        return new ConfigException(file, line, column, null, ConfigMessages.syntax(String.valueOf(message)));
    }

    /** 1-based line and column of the code point at {@code index} of the text. */
    private int[] position(int index) {
        int line = 1;
        int column = 1;
        int i = 0;
        for (int cp = 0; cp < index && i < text.length(); cp++) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (c == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new int[] {line, column};
    }

    /** Jackson's YAML parser with the snakeyaml event behind its current token in view (marks, anchors, tags). */
    private static final class EventParser extends YAMLParser {

        EventParser(ObjectReadContext readCtxt, IOContext ioCtxt, BufferRecycler recycler, int streamReadFeatures,
                int formatReadFeatures, LoadSettings settings, Reader reader) {
            super(readCtxt, ioCtxt, recycler, streamReadFeatures, formatReadFeatures, settings, reader, true);
        }

        Event lastEvent() {
            return _lastEvent;
        }
    }

    /** A YAML factory whose parsers are {@link EventParser}s. */
    private static final class EventYamlFactory extends YAMLFactory {

        private static final long serialVersionUID = 1L;

        EventYamlFactory(YAMLFactoryBuilder builder) {
            super(builder);
        }

        @Override
        protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ioCtxt, Reader r) {
            return new EventParser(readCtxt, ioCtxt, _getBufferRecycler(),
                    readCtxt.getStreamReadFeatures(_streamReadFeatures),
                    readCtxt.getFormatReadFeatures(_formatReadFeatures), _loadSettings, r);
        }
    }
}
