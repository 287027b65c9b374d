package dev.resilienceharness.config.yaml;

import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.json.RecentTexts;
import dev.resilienceharness.json.SmallObjectMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the plain shape almost every {@code resilience.yaml} has — block mappings and lists indented with spaces,
 * one-line flow lists and mappings, one-line plain and quoted scalars, comments — straight into the {@link YamlNode}
 * tree {@link YamlReader} would build, with the same lines, columns and scalar types, in one pass over the text.
 *
 * <p>It gives up ({@code null}) on anything else: anchors, aliases, tags, block scalars, multi-line scalars or flow
 * collections, quoted keys, tabs, document markers, non-ASCII text, duplicate keys, empty values, deep nesting,
 * numbers written any other way than {@code 3}, {@code -4} or {@code 0.25}, words YAML 1.1 reads as booleans, and
 * anything malformed. {@link YamlReader} then reads the text with snakeyaml-engine, which is the authority: every
 * error, and every document outside the subset, is its. So this reader never accepts what the full one refuses and
 * never reads a document differently; {@code SubsetYamlReaderTest} compares the two trees.
 *
 * <p>It exists for speed: on the benchmark corpus's 3.7 MB yaml snakeyaml-engine builds hundreds of thousands of
 * events, and a cold check reading it this way spends less CPU (bench/README.md, "The machinery measured"). For the
 * same reason, given a {@code jsonKey}, it reads
 * each value of that key of the root mapping that is a one-line flow mapping straight into the JSON object it spells
 * ({@link YamlNode.Json}), as {@link JsonValues} would turn its {@link YamlNode.Mapping}: the ten thousand
 * {@code requests:} of that corpus then make no tree of their own to be turned into JSON afterwards. Anything that
 * {@link JsonValues} would refuse gives up, so that the full reader's tree and its error come as before.
 */
final class SubsetYamlReader {

    /** Thrown to give up on a document; never leaves this class. */
    private static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    private static final Unsupported UNSUPPORTED = new Unsupported();

    /** A block mapping of at least this many keys is read in parts, on all cores: {@value}. */
    static final int PARALLEL_KEYS = 1024;
    /** How many keys of such a mapping one part reads: {@value}. */
    static final int KEYS_PER_PART = 256;

    private final byte[] s;
    /** Where the text read ends: its length, or the end of the part a reader of one part reads. */
    private final int n;
    private final int parallelKeys;
    private final int keysPerPart;
    /** The key of the root mapping whose one-line flow mappings are read as JSON, or {@code null}. */
    private final String jsonKey;
    /** Whether the value of {@link #jsonKey} is being read: its mapping's flow mappings are read as JSON. */
    private boolean inJsonKey;
    /** The position read next. */
    private int p;
    /** The index of the first character of the current line, and its 1-based number. */
    private int lineStart;
    private int line = 1;
    /**
     * The nodes of the flow collections read since {@link #flowNodes} was last set to 0, and the deepest of their
     * collections: a request read as JSON is given its weight and height from them, without a walk of its tree.
     */
    private long flowNodes;
    private int flowDeepest;

    private SubsetYamlReader(byte[] text, int end, int parallelKeys, int keysPerPart, String jsonKey) {
        this.s = text;
        this.n = end;
        this.parallelKeys = parallelKeys;
        this.keysPerPart = keysPerPart;
        this.jsonKey = jsonKey;
    }

    /**
     * The document's tree, or {@code null} when the text is outside the subset (or has no document). The subset is
     * ASCII, so the bytes are read as they are, without decoding.
     */
    static YamlNode read(byte[] content) {
        return read(content, null);
    }

    /**
     * As {@link #read(byte[])}, reading the one-line flow mappings that are values of the mapping under the root's
     * {@code jsonKey} (may be {@code null}: none) as {@link YamlNode.Json}.
     */
    static YamlNode read(byte[] content, String jsonKey) {
        return read(content, PARALLEL_KEYS, KEYS_PER_PART, jsonKey);
    }

    /**
     * As {@link #read(byte[], String)}, reading a block mapping of at least {@code parallelKeys} keys in parts of
     * {@code keysPerPart} keys on all cores (the tests make both small, so that every document takes that way too).
     */
    static YamlNode read(byte[] content, int parallelKeys, int keysPerPart, String jsonKey) {
        for (byte b : content) {
            if ((b < 0x20 && b != '\n') || b > 0x7E) {
                return null;
            }
        }
        try {
            return new SubsetYamlReader(content, content.length, parallelKeys, keysPerPart, jsonKey).document();
        } catch (Unsupported e) {
            return null;
        }
    }

    private YamlNode document() throws Unsupported {
        if (!nextContentLine() || indent() != 0 || startsWith("---") || startsWith("...")
                || (char) s[p] == '%') {
            throw UNSUPPORTED;
        }
        YamlNode root = blockNode(0, 1);
        if (nextContentLine()) {
            throw UNSUPPORTED;
        }
        return root;
    }

    private boolean startsWith(String marker) {
        for (int i = 0; i < marker.length(); i++) {
            if (p + i >= n || s[p + i] != marker.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String text(int start, int end) {
        return new String(s, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** Texts this long or shorter are looked up in {@link #recent} before a new {@code String} is made. */
    private static final int SHARED_LENGTH = 24;

    /**
     * Short texts read lately: the keys of a list of requests (model, messages, role, content) and values such as a
     * role or a model recur in every one, and each is then one {@code String}.
     */
    private final RecentTexts recent = new RecentTexts(512);

    /** The text {@code s[start, end)}, shared with the last equal one read when it is short. */
    private String sharedText(int start, int end) {
        return end - start > SHARED_LENGTH ? text(start, end)
                : recent.text(s, start, end - start, RecentTexts.hash(s, start, end));
    }

    // ---- lines

    /**
     * Moves to the first character of the next line holding content (not blank, not only a comment), starting at
     * {@code p}, which is at a line's start or at the end of a line's content; false at the end of the text.
     */
    private boolean nextContentLine() throws Unsupported {
        if (atContentStart()) {
            return true;
        }
        if (p > lineStart) {
            endOfLine();
        }
        while (p < n) {
            int i = p;
            while (i < n && (char) s[i] == ' ') {
                i++;
            }
            if (contentAt(i)) {
                p = i;
                return true;
            }
            while (i < n && (char) s[i] != '\n') {
                i++;
            }
            if (i < n) {
                i++;
                line++;
                lineStart = i;
            }
            p = i;
        }
        return false;
    }

    /**
     * Whether a line's content starts at {@code i}, the first character after its indentation: not its end, not a
     * comment.
     */
    private boolean contentAt(int i) {
        return i < n && (char) s[i] != '\n' && (char) s[i] != '#';
    }

    /** Whether {@code p} is at the first content character of its line (where a nested block stopped). */
    private boolean atContentStart() {
        if (p >= n) {
            return false;
        }
        char c = (char) s[p];
        if (c == ' ' || c == '\n' || c == '#') {
            return false;
        }
        for (int i = lineStart; i < p; i++) {
            if ((char) s[i] != ' ') {
                return false;
            }
        }
        return true;
    }

    /** Skips spaces and a comment to the end of the line, and past it; anything else gives up. */
    private void endOfLine() throws Unsupported {
        boolean space = p == lineStart || (char) s[p - 1] == ' ';
        while (p < n && (char) s[p] == ' ') {
            p++;
            space = true;
        }
        if (p < n && (char) s[p] == '#') {
            if (!space) {
                throw UNSUPPORTED;
            }
            while (p < n && (char) s[p] != '\n') {
                p++;
            }
        }
        if (p < n) {
            if ((char) s[p] != '\n') {
                throw UNSUPPORTED;
            }
            p++;
            line++;
            lineStart = p;
        }
    }

    private int indent() {
        return p - lineStart;
    }

    private int column() {
        return p - lineStart + 1;
    }

    /** Whether nothing but spaces and a comment is left on the line. */
    private boolean restOfLineEmpty() {
        int i = p;
        while (i < n && (char) s[i] == ' ') {
            i++;
        }
        return i >= n || (char) s[i] == '\n' || ((char) s[i] == '#' && (i > p || (char) s[i - 1] == ' '));
    }

    // ---- block context

    /** A block mapping or list starting at {@code p}, whose lines are indented by {@link #indent()}. */
    private YamlNode blockNode(int minIndent, int depth) throws Unsupported {
        if (depth > YamlReader.MAX_DEPTH || indent() < minIndent) {
            throw UNSUPPORTED;
        }
        if (dashItem()) {
            return blockSequence(depth, false);
        }
        return blockMapping(indent(), depth);
    }

    /** Whether {@code p} is at a list item's dash: {@code -} and a space or the line's end. */
    private boolean dashItem() {
        return dashAt(p);
    }

    /** Whether a list item's dash is at {@code i}: {@code -} and a space or the line's end. */
    private boolean dashAt(int i) {
        return i < n && (char) s[i] == '-' && (i + 1 >= n || (char) s[i + 1] == ' ' || (char) s[i + 1] == '\n');
    }

    /** A block mapping whose keys are at column {@code indent + 1}; {@code p} is at its first key. */
    private YamlNode.Mapping blockMapping(int indent, int depth) throws Unsupported {
        int startLine = line;
        int startColumn = column();
        List<YamlNode.Entry> entries = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // The first keys are read here; a mapping that goes on is looked at for its length, and a long one is read
        // in parts.
        if (!readKeys(indent, depth, entries, seen, Math.max(1, parallelKeys / 16))) {
            Keys keys = keys(indent);
            if (keys != null) {
                inParts(keys, indent, depth, entries, seen);
            } else {
                readKeys(indent, depth, entries, seen, Integer.MAX_VALUE);
            }
        }
        return new YamlNode.Mapping(entries, startLine, startColumn);
    }

    /**
     * The keys of a block mapping at {@code indent}, from {@code p} (at a key) to the first line indented less or the
     * end of the text, each into {@code entries} and {@code seen} (a repeated key gives up); when {@code entries}
     * holds {@code upTo} of them, it stops at the next key and returns false. True when the mapping has ended.
     */
    private boolean readKeys(int indent, int depth, List<YamlNode.Entry> entries, Set<String> seen, int upTo)
            throws Unsupported {
        while (true) {
            int keyLine = line;
            int keyColumn = column();
            String key = key();
            if (!seen.add(key)) {
                throw UNSUPPORTED;
            }
            YamlNode value;
            if (depth == 1 && key.equals(jsonKey)) {
                inJsonKey = true;
                try {
                    value = blockValue(indent, depth, false);
                } finally {
                    inJsonKey = false;
                }
            } else {
                value = blockValue(indent, depth, inJsonKey && depth == 2);
            }
            entries.add(new YamlNode.Entry(key, keyLine, keyColumn, value));
            if (!nextContentLine()) {
                return true;
            }
            int next = indent();
            if (next < indent) {
                return true;
            }
            if (next > indent) {
                throw UNSUPPORTED;
            }
            if (entries.size() >= upTo) {
                return false;
            }
        }
    }

    /**
     * Where the keys of a long block mapping start, found by a look at the lines' indentation alone.
     *
     * @param at           each key's position (the first {@code count})
     * @param lines        each key's line number
     * @param count        how many keys there are
     * @param end          where the reader stands after the mapping: the first content character of the first line
     *                     indented less, or the end of the text
     * @param endLineStart where the line of {@code end} starts
     * @param endLine      its number
     * @param textEnd      where the mapping's text ends: the start of the line indented less, or the end of the text
     */
    private record Keys(int[] at, int[] lines, int count, int end, int endLineStart, int endLine, int textEnd) {
    }

    /**
     * The keys of the block mapping at {@code indent} from the key at {@code p} on, when there are at least
     * {@link #parallelKeys} of them; {@code null} when there are fewer. A key starts every content line indented
     * exactly {@code indent} that is not a list item (a list may sit as far in as its key); the mapping ends at the
     * first content line indented less. Whatever else the lines hold is the parts' readers' to accept or refuse.
     */
    private Keys keys(int indent) {
        if (n - p < parallelKeys) {
            return null;
        }
        int[] at = new int[64];
        int[] lines = new int[64];
        int count = 0;
        int i = lineStart;
        int ln = line;
        while (i < n) {
            int j = i;
            while (j < n && s[j] == ' ') {
                j++;
            }
            if (contentAt(j)) {
                int spaces = j - i;
                if (spaces < indent) {
                    return count >= parallelKeys ? new Keys(at, lines, count, j, i, ln, i) : null;
                }
                if (spaces == indent && !dashAt(j)) {
                    if (count == at.length) {
                        at = Arrays.copyOf(at, 2 * count);
                        lines = Arrays.copyOf(lines, 2 * count);
                    }
                    at[count] = j;
                    lines[count++] = ln;
                }
            }
            while (j < n && s[j] != '\n') {
                j++;
            }
            if (j >= n) {
                break;
            }
            i = j + 1;
            ln++;
        }
        return count >= parallelKeys ? new Keys(at, lines, count, n, i, ln, n) : null;
    }

    /**
     * The block mapping whose keys {@code keys} found, read in parts of {@link #keysPerPart} keys, each by a reader of
     * its own that ends where the next part begins, on all cores; the reader then stands where the sequential reading
     * would. A part that reads another number of keys than it was given, a repeated key across parts, and anything
     * any part gives up on give up on the document.
     */
    private void inParts(Keys keys, int indent, int depth, List<YamlNode.Entry> entries, Set<String> seen)
            throws Unsupported {
        int parts = (keys.count() + keysPerPart - 1) / keysPerPart;
        @SuppressWarnings("unchecked")
        List<YamlNode.Entry>[] read = new List[parts];
        Indices.forEach(parts, k -> {
            int first = k * keysPerPart;
            int last = Math.min(first + keysPerPart, keys.count());
            // A part runs from its first key's line to the line of the next part's first key (or the mapping's end).
            int from = keys.at()[first] - indent;
            int to = last < keys.count() ? keys.at()[last] - indent : keys.textEnd();
            SubsetYamlReader part = new SubsetYamlReader(s, to, Integer.MAX_VALUE, keysPerPart, jsonKey);
            part.inJsonKey = inJsonKey;
            part.p = keys.at()[first];
            part.lineStart = from;
            part.line = keys.lines()[first];
            List<YamlNode.Entry> partEntries = new ArrayList<>(last - first);
            try {
                part.readKeys(indent, depth, partEntries, new HashSet<>(), Integer.MAX_VALUE);
            } catch (Unsupported e) {
                return;
            }
            if (partEntries.size() == last - first) {
                read[k] = partEntries;
            }
        });
        for (List<YamlNode.Entry> part : read) {
            if (part == null) {
                throw UNSUPPORTED;
            }
            for (YamlNode.Entry e : part) {
                if (!seen.add(e.key())) {
                    throw UNSUPPORTED;
                }
                entries.add(e);
            }
        }
        p = keys.end();
        lineStart = keys.endLineStart();
        line = keys.endLine();
    }

    /**
     * A block list whose dashes are at {@code p}'s column; one indented as far as its mapping's keys
     * ({@code indentless}) ends at the first line there without a dash.
     */
    private YamlNode.Sequence blockSequence(int depth, boolean indentless) throws Unsupported {
        int indent = indent();
        int startLine = line;
        int startColumn = column();
        List<YamlNode> items = new ArrayList<>();
        while (true) {
            if (!dashItem()) {
                if (indentless && !items.isEmpty()) {
                    break;
                }
                throw UNSUPPORTED;
            }
            p++;
            int spaces = 0;
            while (p < n && (char) s[p] == ' ') {
                p++;
                spaces++;
            }
            if (spaces == 0 || restOfLineEmpty()) {
                throw UNSUPPORTED;
            }
            // A mapping in an item stops at a line indented less than its keys, or at the end.
            items.add(startsKey() ? blockMapping(indent(), depth + 1) : inlineValue(depth + 1));
            if (!nextContentLine()) {
                break;
            }
            int next = indent();
            if (next < indent) {
                break;
            }
            if (next > indent) {
                throw UNSUPPORTED;
            }
        }
        return new YamlNode.Sequence(items, startLine, startColumn);
    }

    /**
     * The value after a block mapping's key and colon: on the same line, or a block list or mapping indented more
     * than {@code indent} on the lines below; with {@code json}, a flow mapping on the same line is read as JSON.
     */
    private YamlNode blockValue(int indent, int depth, boolean json) throws Unsupported {
        if (restOfLineEmpty()) {
            if (!nextContentLine() || indent() < indent) {
                // An empty value: left to the full reader.
                throw UNSUPPORTED;
            }
            if (indent() == indent) {
                // A list may be indented as far as its key, and then ends at the mapping's next key.
                if (!dashItem() || depth + 1 > YamlReader.MAX_DEPTH) {
                    throw UNSUPPORTED;
                }
                return blockSequence(depth + 1, true);
            }
            return blockNode(indent + 1, depth + 1);
        }
        if (json && peek() == '{') {
            int startLine = line;
            int startColumn = column();
            flowNodes = 0;
            flowDeepest = 0;
            ObjectNode request = (ObjectNode) flowNode(depth + 1, JSON);
            // One node per value read, and one level per depth its collections reach beyond the value's own.
            return new YamlNode.Json(request, startLine, startColumn, flowNodes, flowDeepest - depth);
        }
        return inlineValue(depth + 1);
    }

    /** A value that starts and ends on this line, at {@code p}, in block context. */
    private YamlNode inlineValue(int depth) throws Unsupported {
        char c = peek();
        if (c == '[' || c == '{') {
            return flowNode(depth, TREE);
        }
        int startLine = line;
        int startColumn = column();
        if (c == '"' || c == '\'') {
            String quoted = quoted();
            if (!restOfLineEmpty()) {
                throw UNSUPPORTED;
            }
            return new YamlNode.Scalar(quoted, YamlNode.ScalarType.STRING, startLine, startColumn);
        }
        String plain = plain(false);
        return new YamlNode.Scalar(plain, type(plain), startLine, startColumn);
    }

    /** Whether a plain key and its colon start at {@code p}. */
    private boolean startsKey() {
        int i = p;
        while (i < n && keyChar((char) s[i])) {
            i++;
        }
        return i > p && i < n && (char) s[i] == ':' && (i + 1 >= n || (char) s[i + 1] == ' '
                || (char) s[i + 1] == '\n');
    }

    /** A plain key of letters, digits, {@code _ . -} starting with a letter or {@code _}, and its colon. */
    private String key() throws Unsupported {
        int start = p;
        if (p >= n || !(Character.isLetter((char) s[p]) || (char) s[p] == '_')) {
            throw UNSUPPORTED;
        }
        while (p < n && keyChar((char) s[p])) {
            p++;
        }
        if (p >= n || (char) s[p] != ':') {
            throw UNSUPPORTED;
        }
        String key = sharedText(start, p);
        p++;
        if (p < n && (char) s[p] != ' ' && (char) s[p] != '\n') {
            throw UNSUPPORTED;
        }
        while (p < n && (char) s[p] == ' ') {
            p++;
        }
        return key;
    }

    private static boolean keyChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                || c == '-';
    }

    // ---- flow context

    /**
     * What a flow collection is read into: the tree's nodes ({@link #TREE}) or the JSON values they spell
     * ({@link #JSON}). The reading, and what it gives up on, is the same for both.
     *
     * @param <N> a value
     */
    private interface Flow<N> {

        /** A new mapping, to {@link #put} entries in. */
        Object mapping();

        /** Adds an entry; false when the mapping has the key already. */
        boolean put(Object mapping, String key, int line, int column, N value);

        N mapping(Object mapping, int line, int column);

        /** A new list, to {@link #add} items to. */
        Object sequence();

        void add(Object sequence, N item);

        N sequence(Object sequence, int line, int column);

        N scalar(String text, YamlNode.ScalarType type, int line, int column) throws Unsupported;
    }

    /** A flow mapping's entries while it is read, and its keys, for a repeated one. */
    private record Entries(List<YamlNode.Entry> list, Set<String> keys) {
    }

    private static final Flow<YamlNode> TREE = new Flow<>() {
        @Override
        public Object mapping() {
            return new Entries(new ArrayList<>(), new HashSet<>());
        }

        @Override
        public boolean put(Object mapping, String key, int line, int column, YamlNode value) {
            Entries entries = (Entries) mapping;
            entries.list().add(new YamlNode.Entry(key, line, column, value));
            return entries.keys().add(key);
        }

        @Override
        public YamlNode mapping(Object mapping, int line, int column) {
            return new YamlNode.Mapping(((Entries) mapping).list(), line, column);
        }

        @Override
        public Object sequence() {
            return new ArrayList<YamlNode>();
        }

        @Override
        @SuppressWarnings("unchecked")
        public void add(Object sequence, YamlNode item) {
            ((List<YamlNode>) sequence).add(item);
        }

        @Override
        @SuppressWarnings("unchecked")
        public YamlNode sequence(Object sequence, int line, int column) {
            return new YamlNode.Sequence((List<YamlNode>) sequence, line, column);
        }

        @Override
        public YamlNode scalar(String text, YamlNode.ScalarType type, int line, int column) {
            return new YamlNode.Scalar(text, type, line, column);
        }
    };

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final Flow<JsonNode> JSON = new Flow<>() {
        @Override
        public Object mapping() {
            // The requests stay in memory for the whole check: a small object's members are kept compactly.
            return new SmallObjectMap.Members();
        }

        @Override
        public boolean put(Object mapping, String key, int line, int column, JsonNode value) {
            return ((SmallObjectMap.Members) mapping).add(key, value);
        }

        @Override
        public JsonNode mapping(Object mapping, int line, int column) {
            return ((SmallObjectMap.Members) mapping).object();
        }

        @Override
        public Object sequence() {
            return NODES.arrayNode();
        }

        @Override
        public void add(Object sequence, JsonNode item) {
            ((ArrayNode) sequence).add(item);
        }

        @Override
        public JsonNode sequence(Object sequence, int line, int column) {
            return (ArrayNode) sequence;
        }

        @Override
        public JsonNode scalar(String text, YamlNode.ScalarType type, int line, int column) throws Unsupported {
            JsonNode value = JsonValues.scalar(text, type);
            if (value == null) {
                // Refused as a request's value: the full reader's tree, and the loader's error for it.
                throw UNSUPPORTED;
            }
            return value;
        }
    };

    private <N> N flowNode(int depth, Flow<N> into) throws Unsupported {
        if (depth > YamlReader.MAX_DEPTH) {
            throw UNSUPPORTED;
        }
        flowNodes++;
        char c = peek();
        if (c == '[' || c == '{') {
            flowDeepest = Math.max(flowDeepest, depth);
            return c == '[' ? flowSequence(depth, into) : flowMapping(depth, into);
        }
        int startLine = line;
        int startColumn = column();
        if (c == '"' || c == '\'') {
            return into.scalar(quoted(), YamlNode.ScalarType.STRING, startLine, startColumn);
        }
        String plain = plain(true);
        return into.scalar(plain, type(plain), startLine, startColumn);
    }

    private <N> N flowSequence(int depth, Flow<N> into) throws Unsupported {
        int startLine = line;
        int startColumn = column();
        p++;
        Object items = into.sequence();
        spaces();
        if (peek() == ']') {
            p++;
            return into.sequence(items, startLine, startColumn);
        }
        while (true) {
            into.add(items, flowNode(depth + 1, into));
            spaces();
            char c = peek();
            p++;
            if (c == ']') {
                return into.sequence(items, startLine, startColumn);
            }
            if (c != ',') {
                throw UNSUPPORTED;
            }
            spaces();
            if (peek() == ']' || peek() == ',') {
                throw UNSUPPORTED;
            }
        }
    }

    private <N> N flowMapping(int depth, Flow<N> into) throws Unsupported {
        int startLine = line;
        int startColumn = column();
        p++;
        Object entries = into.mapping();
        spaces();
        if (peek() == '}') {
            p++;
            return into.mapping(entries, startLine, startColumn);
        }
        while (true) {
            int keyLine = line;
            int keyColumn = column();
            String key = key();
            char v = peek();
            if (v == ',' || v == '}' || v == '\n' || (char) s[p - 1] != ' ') {
                // An empty value, or a colon not followed by a space.
                throw UNSUPPORTED;
            }
            if (!into.put(entries, key, keyLine, keyColumn, flowNode(depth + 1, into))) {
                throw UNSUPPORTED;
            }
            spaces();
            char c = peek();
            p++;
            if (c == '}') {
                return into.mapping(entries, startLine, startColumn);
            }
            if (c != ',') {
                throw UNSUPPORTED;
            }
            spaces();
            if (peek() == '}' || peek() == ',') {
                throw UNSUPPORTED;
            }
        }
    }

    private void spaces() {
        while (p < n && (char) s[p] == ' ') {
            p++;
        }
    }

    /** The character at {@code p}; a line break (which a one-line flow collection never reaches) at the end. */
    private char peek() {
        return p < n ? (char) s[p] : '\n';
    }

    // ---- scalars

    /** The text of a one-line quoted scalar at {@code p}, with only the simplest escapes. */
    private String quoted() throws Unsupported {
        char quote = (char) s[p++];
        StringBuilder text = new StringBuilder();
        while (true) {
            char c = peek();
            if (c == '\n') {
                throw UNSUPPORTED;
            }
            p++;
            if (c == quote) {
                if (quote == '\'' && peek() == '\'') {
                    text.append('\'');
                    p++;
                    continue;
                }
                break;
            }
            if (c == '\\' && quote == '"') {
                char e = peek();
                p++;
                switch (e) {
                    case '"', '\\', '/' -> text.append(e);
                    case 'n' -> text.append('\n');
                    case 't' -> text.append('\t');
                    default -> throw UNSUPPORTED;
                }
                continue;
            }
            text.append(c);
        }
        // A quoted scalar is followed by the end of its line, a flow indicator, or a mapping's colon; the last is a
        // quoted key, left to the full reader.
        char after = peek();
        if (after == ':') {
            throw UNSUPPORTED;
        }
        return text.toString();
    }

    /**
     * The text of a one-line plain scalar at {@code p}, to be typed by {@link #type}. In flow context it ends at a
     * {@code ,}, {@code ]} or {@code }}; in block context at the line's end or a comment.
     */
    private String plain(boolean flow) throws Unsupported {
        int start = p;
        char first = peek();
        if ("-?:,[]{}#&*!|>'\"%@`\n ".indexOf(first) >= 0
                && !(first == '-' && p + 1 < n && plainChar((char) s[p + 1]))) {
            throw UNSUPPORTED;
        }
        int end = p;
        while (p < n) {
            char c = (char) s[p];
            if (c == '\n') {
                break;
            }
            if (c == ' ') {
                p++;
                continue;
            }
            if (c == '#' && (char) s[p - 1] == ' ') {
                break;
            }
            if (flow && (c == ',' || c == ']' || c == '}')) {
                break;
            }
            if (c == ':') {
                // A colon before a space or the end is a mapping value YAML does not allow here; in flow context a
                // colon is left to the full reader.
                if (flow || p + 1 >= n || (char) s[p + 1] == ' ' || (char) s[p + 1] == '\n') {
                    throw UNSUPPORTED;
                }
            }
            if (flow && (c == '[' || c == '{' || c == '#')) {
                throw UNSUPPORTED;
            }
            p++;
            end = p;
        }
        p = end;
        return sharedText(start, end);
    }

    private static boolean plainChar(char c) {
        return c > ' ' && "-?:,[]{}#&*!|>'\"%@`".indexOf(c) < 0;
    }

    /**
     * The type the full reader gives a plain scalar: {@code null}, {@code true}, {@code false}, integers such as
     * {@code 3} and {@code -4}, decimals such as {@code 0.25}; text otherwise. Anything that could be read as another
     * kind of number, or as a YAML 1.1 word, gives up.
     */
    static YamlNode.ScalarType type(String text) throws Unsupported {
        switch (text) {
            case "null":
                return YamlNode.ScalarType.NULL;
            case "true", "false":
                return YamlNode.ScalarType.BOOLEAN;
            default:
                break;
        }
        // None of these words is longer than 8 characters: a longer text (a sentence, say) is not copied to lower case.
        if (text.length() <= 8) {
            switch (text.toLowerCase(java.util.Locale.ROOT)) {
                case "null", "true", "false", "yes", "no", "on", "off", "y", "n", "~", "inf", "infinity", "nan":
                    throw UNSUPPORTED;
                default:
                    break;
            }
        }
        if (integer(text)) {
            return YamlNode.ScalarType.INTEGER;
        }
        if (decimal(text)) {
            return YamlNode.ScalarType.FLOAT;
        }
        if (numberLike(text)) {
            throw UNSUPPORTED;
        }
        return YamlNode.ScalarType.STRING;
    }

    /** {@code 0} or {@code -?[1-9][0-9]*}, at most 18 digits. */
    private static boolean integer(String t) {
        return integer(t, t.length()) && !t.equals("-0");
    }

    /** Whether the first {@code end} characters of {@code t} are {@code -?(0|[1-9][0-9]*)}, at most 18 digits. */
    private static boolean integer(String t, int end) {
        int i = t.startsWith("-") ? 1 : 0;
        int digits = end - i;
        if (digits < 1 || digits > 18 || (t.charAt(i) == '0' && digits > 1)) {
            return false;
        }
        for (int k = i; k < end; k++) {
            if (t.charAt(k) < '0' || t.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code -?(0|[1-9][0-9]*)\.[0-9]+}, at most 18 digits before the point. */
    private static boolean decimal(String t) {
        int dot = t.indexOf('.');
        // The part before the point is read in place: a sentence with a full stop is not copied to test it.
        if (dot < 0 || dot == t.length() - 1 || !integer(t, dot)) {
            return false;
        }
        for (int k = dot + 1; k < t.length(); k++) {
            if (t.charAt(k) < '0' || t.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the text is made only of characters some YAML number form uses (digits, signs, points, underscores,
     * exponents, hex digits, {@code x o b}, colons, {@code inf nan}), starting with a digit, sign or point.
     */
    private static boolean numberLike(String t) {
        char first = t.charAt(0);
        if (!((first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.')) {
            return false;
        }
        for (int k = 0; k < t.length(); k++) {
            char c = Character.toLowerCase(t.charAt(k));
            if (!((c >= '0' && c <= '9') || "+-._:eoxbacdfinINF".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }
}
