package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Collection;
import java.util.Locale;
import org.apiguardian.api.API;

/** Finds the known word a mistyped one was most likely meant to be, for "did you mean" hints. */
@API(status = INTERNAL, since = "0.1.0")
public final class DidYouMean {

    /** Words longer than this are not compared: the hint is for typos, not for pasted paragraphs. */
    static final int MAX_LENGTH = 64;

    private DidYouMean() {
    }

    /**
     * The candidate closest to {@code word} by edit distance (insertions, deletions, substitutions and swaps of
     * neighbours, with case and {@code -}/{@code _} ignored), or {@code null} when none is near enough: at most 1
     * edit for words of up to 4 characters, 2 up to 8, else 3. Ties go to the earlier candidate.
     */
    public static String suggest(String word, Collection<String> candidates) {
        if (word == null || word.isEmpty() || word.length() > MAX_LENGTH) {
            return null;
        }
        String norm = normalize(word);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            if (candidate.equals(word) || candidate.length() > MAX_LENGTH) {
                continue;
            }
            int d = distance(norm, normalize(candidate));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= allowedEdits(word.length()) ? best : null;
    }

    private static int allowedEdits(int length) {
        if (length <= 4) {
            return 1;
        }
        return length <= 8 ? 2 : 3;
    }

    private static String normalize(String s) {
        return s.toLowerCase(Locale.ROOT).replace('-', '_');
    }

    /** Optimal string alignment distance: Levenshtein plus the swap of two neighbouring characters. */
    static int distance(String a, String b) {
        int n = a.length();
        int m = b.length();
        int[][] d = new int[n + 1][m + 1];
        for (int i = 0; i <= n; i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= m; j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[n][m];
    }
}
