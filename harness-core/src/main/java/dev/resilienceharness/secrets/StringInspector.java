package dev.resilienceharness.secrets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds every secret in one JSON string (escapes already decoded by the parser), looking through the encodings
 * secrets hide behind: URL percent-encoding, base64 {@code Basic} credentials, base64 and hex runs of text,
 * {@code name=value} pairs in query strings, form bodies, prose, config files and code ({@code KEY = value},
 * {@code key := value}, {@code key => value}, {@code <key>value</key>}, {@code setProperty("KEY", "value")}), and
 * an auth scheme in front of a token. JSON carried inside the string is the caller's business, because it has a
 * path of its own.
 *
 * <p>The text is read by {@link TokenScanner} once; only when it holds a percent escape is it decoded (one pass)
 * and the decoded text read instead. Basic tokens and pair values are each read once more at most; a base64 or
 * hex run is decoded once, and the shorter text it decodes to is read like a string, at most
 * {@value #MAX_DECODE_DEPTH} encodings deep. The
 * high-entropy rule only runs on values under key-like names, whose length it bounds. So the work stays linear
 * in the string's length.
 *
 * <p>Not thread-safe: it reuses its buffers, one instance per scan.
 */
final class StringInspector {

    private static final int MAX_SCHEME = 16;
    /** How many encodings deep a secret is looked for: base64 of hex of a key is found, deeper is not. */
    static final int MAX_DECODE_DEPTH = 2;
    /** The shortest encoded run worth decoding: base64 of 18 bytes, shorter than any key the rules match. */
    static final int MIN_ENCODED = 24;
    /** The longest: a key encoded in text is short; a longer run is an image or a file. */
    static final int MAX_ENCODED = 4096;
    /** The fewest characters an encoded run must decode to. */
    private static final int MIN_DECODED = 16;

    /** 0 for a string itself, n for text decoded from it n times. */
    private final int depth;
    /** Reads decoded text; made on first use. */
    private StringInspector decodedInspector;
    private final Collector collector = new Collector();
    private final Collector basicCollector = new Collector();
    private final List<Hit> hits = new ArrayList<>();

    StringInspector() {
        this(0);
    }

    private StringInspector(int depth) {
        this.depth = depth;
    }

    /**
     * The secrets in {@code a[from, to)}, with spans relative to {@code from}. The list is reused by the next
     * call.
     *
     * @param keyLikeValue whether the string is the value of a key-like name, so that the whole value is judged
     *                     by the high-entropy rule
     */
    List<Hit> inspect(char[] a, int from, int to, boolean keyLikeValue) {
        hits.clear();
        if (SafeValues.isBase64DataUri(a, from, to)) {
            return hits;
        }
        collector.reset();
        int flags = TokenScanner.scan(a, from, to, collector);
        char[] text = a;
        int textFrom = from;
        int textTo = to;
        int[] rawIndex = null;
        if ((flags & TokenScanner.PERCENT) != 0) {
            PercentDecoding.Decoded decoded = PercentDecoding.decode(a, from, to);
            text = decoded.text();
            textFrom = 0;
            textTo = decoded.length();
            rawIndex = decoded.rawIndex();
            collector.reset();
            TokenScanner.scan(text, textFrom, textTo, collector);
        }
        Layer layer = new Layer(text, rawIndex, from);
        for (int k = 0; k < collector.secretCount; k++) {
            int s = collector.spans[2 * k];
            int e = collector.spans[2 * k + 1];
            hits.add(new Hit(collector.rules[k], layer.string(s, e), layer.raw(s), layer.raw(e)));
        }
        for (int k = 0; k < collector.basicCount; k++) {
            basic(layer, collector.basics[2 * k], collector.basics[2 * k + 1]);
        }
        for (int k = 0; k < collector.pairCount; k++) {
            pair(layer, textTo, collector.pairs[3 * k], collector.pairs[3 * k + 1], collector.pairs[3 * k + 2]);
        }
        if (depth < MAX_DECODE_DEPTH) {
            encoded(layer, textFrom, textTo);
        }
        if (keyLikeValue) {
            wholeValue(a, from, to);
        }
        return hits;
    }

    /**
     * Secrets inside base64 (standard or URL-safe) and hex runs of the text, decoded once each and read like a
     * string of their own, as gitleaks' decoding does. A hit's secret and span are the encoded run: that is what
     * the file holds, what a mask shows and what redaction cuts. Each run is decoded at most once and its text
     * is shorter than the run, so the work stays linear.
     */
    private void encoded(Layer layer, int from, int to) {
        // the hits so far by start, with the furthest end up to each: a run overlaps one when a hit starting
        // before the run's end reaches past its start; runs come in order, so one pointer walks the hits
        int found = hits.size();
        Hit[] byStart = hits.toArray(new Hit[0]);
        Arrays.sort(byStart, (x, y) -> Integer.compare(x.start(), y.start()));
        int[] reach = new int[found];
        for (int k = 0; k < found; k++) {
            reach[k] = Math.max(byStart[k].end(), k > 0 ? reach[k - 1] : Integer.MIN_VALUE);
        }
        int before = 0;
        char[] t = layer.text;
        int i = from;
        while (i < to) {
            if (!isBase64(t[i])) {
                i++;
                continue;
            }
            int start = i;
            boolean hex = true;
            while (i < to && isBase64(t[i])) {
                hex &= Chars.isHex(t[i]);
                i++;
            }
            int dataEnd = i;
            while (i < to && t[i] == '=' && i - dataEnd < 2) {
                i++;
            }
            if (dataEnd - start < MIN_ENCODED || i - start > MAX_ENCODED) {
                continue;
            }
            int rawStart = layer.raw(start);
            int rawEnd = layer.raw(i);
            while (before < found && byStart[before].start() < rawEnd) {
                before++;
            }
            if (before > 0 && reach[before - 1] > rawStart) {
                continue;
            }
            String decoded = hex ? Encodings.hexText(t, start, dataEnd) : null;
            if (decoded == null) {
                decoded = Encodings.base64Text(t, start, dataEnd);
            }
            if (decoded != null && decoded.length() >= MIN_DECODED) {
                decodedSecret(decoded, layer.string(start, i), rawStart, rawEnd);
            }
        }
    }

    /** Adds one hit for the encoded run {@code encoded} when the text it decodes to holds a secret. */
    private void decodedSecret(String decoded, String encoded, int rawStart, int rawEnd) {
        if (decodedInspector == null) {
            decodedInspector = new StringInspector(depth + 1);
        }
        char[] d = decoded.toCharArray();
        List<Hit> inside = decodedInspector.inspect(d, 0, d.length, false);
        if (!inside.isEmpty()) {
            hits.add(new Hit(inside.get(0).rule(), encoded, rawStart, rawEnd));
        }
    }

    private static boolean isBase64(char c) {
        return Chars.isToken(c) || c == '+' || c == '/';
    }

    /** Secrets inside the decoded {@code user:password} of a Basic token; all are cut out with the token. */
    private void basic(Layer layer, int start, int end) {
        String pair = BasicCredentials.decode(layer.text, start, end);
        if (pair == null) {
            return;
        }
        char[] p = pair.toCharArray();
        basicCollector.reset();
        TokenScanner.scan(p, 0, p.length, basicCollector);
        int rawStart = layer.raw(start);
        int rawEnd = layer.raw(end);
        int colon = pair.indexOf(':');
        boolean passwordHasToken = false;
        for (int k = 0; k < basicCollector.secretCount; k++) {
            int s = basicCollector.spans[2 * k];
            int e = basicCollector.spans[2 * k + 1];
            passwordHasToken |= e > colon;
            hits.add(new Hit(basicCollector.rules[k], new String(p, s, e - s), rawStart, rawEnd));
        }
        String password = pair.substring(colon + 1);
        if (!passwordHasToken && HighEntropy.isSecretUnderKeyName(password)) {
            hits.add(new Hit(Rule.HIGH_ENTROPY_SECRET, password, rawStart, rawEnd));
        }
    }

    /** The value of a {@code name=value} or {@code name: value} pair whose name is key-like. */
    private void pair(Layer layer, int textTo, int nameStart, int nameEnd, int separator) {
        char[] t = layer.text;
        if (!KeyNames.mayBeKeyLike(t, nameStart, nameEnd)
                || !KeyNames.isKeyLike(new String(t, nameStart, nameEnd - nameStart))) {
            return;
        }
        int i = separator + 1;
        // the second character of =>, := and the like
        if (i < textTo && (t[separator] == '=' && t[i] == '>' || t[separator] == ':' && t[i] == '=')) {
            i++;
        }
        for (int skip = 0; skip < 2 && i < textTo && (t[i] == ' ' || t[i] == '\t'); skip++) {
            i++;
        }
        if (i < textTo && (t[i] == '"' || t[i] == '\'')) {
            i++;
        }
        int start = i;
        int end = valueEnd(t, start, textTo);
        if (end < textTo && t[end] == ' ' && isScheme(t, start, end)) {
            start = end + 1;
            end = valueEnd(t, start, textTo);
        }
        if (end - start < HighEntropy.MIN_LENGTH || end - start > HighEntropy.MAX_LENGTH) {
            return;
        }
        String value = layer.string(start, end);
        int rawStart = layer.raw(start);
        int rawEnd = layer.raw(end);
        if (!overlapsHit(rawStart, rawEnd) && HighEntropy.isSecretUnderKeyName(value)) {
            hits.add(new Hit(Rule.HIGH_ENTROPY_SECRET, value, rawStart, rawEnd));
        }
    }

    /** The whole string under a key-like name, or the credential after its auth scheme. */
    private void wholeValue(char[] a, int from, int to) {
        if (to - from < HighEntropy.MIN_LENGTH || to - from > HighEntropy.MAX_LENGTH + MAX_SCHEME + 1) {
            return;
        }
        String value = new String(a, from, to - from);
        String candidate = HighEntropy.candidate(value);
        if (candidate == null || !HighEntropy.isSecretUnderKeyName(candidate)) {
            return;
        }
        int start = value.lastIndexOf(candidate);
        int end = start + candidate.length();
        if (!overlapsHit(start, end)) {
            hits.add(new Hit(Rule.HIGH_ENTROPY_SECRET, candidate, start, end));
        }
    }

    private boolean overlapsHit(int start, int end) {
        for (Hit h : hits) {
            if (h.overlaps(start, end)) {
                return true;
            }
        }
        return false;
    }

    /** Where a pair's value ends: at whitespace, a quote, a bracket, or the next separator or delimiter. */
    private static int valueEnd(char[] t, int from, int to) {
        int limit = Math.min(to, from + HighEntropy.MAX_LENGTH + 1);
        int i = from;
        while (i < limit && " \t\r\n\"'&;,#<>=:()[]{}|\\`".indexOf(t[i]) < 0) {
            i++;
        }
        return i;
    }

    /** An auth scheme: letters, or capitalised words joined by dashes ({@code Bearer}, {@code Api-Token}). */
    private static boolean isScheme(char[] t, int from, int to) {
        if (to - from < 2 || to - from > MAX_SCHEME || !Chars.isLetter(t[from])) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!Chars.isLetter(t[i]) && !(t[i] == '-' && i + 1 < to && Chars.isUpper(t[i + 1]))) {
                return false;
            }
        }
        return true;
    }

    /** The text that was scanned, and how its indices map back to the string (relative to its start). */
    private record Layer(char[] text, int[] rawIndex, int from) {

        int raw(int i) {
            return (rawIndex == null ? i : rawIndex[i]) - from;
        }

        String string(int start, int end) {
            return new String(text, start, end - start);
        }
    }

    /** Collects what a {@link TokenScanner} pass reports, in growable primitive arrays. */
    private static final class Collector implements TokenScanner.Sink {

        Rule[] rules = new Rule[4];
        int[] spans = new int[8];
        int secretCount;
        int[] basics = new int[4];
        int basicCount;
        int[] pairs = new int[6];
        int pairCount;

        void reset() {
            secretCount = 0;
            basicCount = 0;
            pairCount = 0;
        }

        @Override
        public void secret(Rule rule, int start, int end) {
            if (secretCount == rules.length) {
                rules = Arrays.copyOf(rules, secretCount * 2);
                spans = Arrays.copyOf(spans, secretCount * 4);
            }
            rules[secretCount] = rule;
            spans[2 * secretCount] = start;
            spans[2 * secretCount + 1] = end;
            secretCount++;
        }

        @Override
        public void basic(int start, int end) {
            if (2 * basicCount + 2 > basics.length) {
                basics = Arrays.copyOf(basics, basics.length * 2);
            }
            basics[2 * basicCount] = start;
            basics[2 * basicCount + 1] = end;
            basicCount++;
        }

        @Override
        public void pair(int nameStart, int nameEnd, int separator) {
            if (3 * pairCount + 3 > pairs.length) {
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
            }
            pairs[3 * pairCount] = nameStart;
            pairs[3 * pairCount + 1] = nameEnd;
            pairs[3 * pairCount + 2] = separator;
            pairCount++;
        }
    }
}
