package dev.resilienceharness.secrets;

import java.util.Locale;
import java.util.Set;

/**
 * E-mail addresses, found from their {@code @}: a local part of up to 64 characters before it and a domain of
 * at least two dot-separated labels after it, ending in an alphabetic top-level domain. Both scans are bounded
 * (64 back, 253 forward), so each {@code @} costs a constant. Image names such as {@code icon@2x.png} and
 * versions such as {@code python@3.11} are not addresses.
 */
final class EmailAddresses {

    private static final int MAX_LOCAL = 64;
    private static final int MAX_DOMAIN = 253;
    private static final int MAX_LABEL = 63;
    private static final Set<String> FILE_EXTENSIONS =
            Set.of("png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "tif", "tiff", "pdf");

    private EmailAddresses() {
    }

    /**
     * The address around the {@code @} at {@code at}, packed as {@code start << 32 | end}, or -1.
     *
     * @param from the start of the text, which the local part does not cross
     * @param to   the end of the text
     */
    static long match(char[] a, int from, int at, int to) {
        int start = at;
        int floor = Math.max(from, at - MAX_LOCAL);
        while (start > floor && isLocal(a[start - 1])) {
            start--;
        }
        while (start < at && a[start] == '.') {
            start++;
        }
        if (start == at || a[at - 1] == '.') {
            return -1;
        }
        int end = domainEnd(a, at + 1, to);
        return end < 0 ? -1 : (long) start << 32 | end;
    }

    /** Start of a packed match. */
    static int start(long match) {
        return (int) (match >>> 32);
    }

    /** End of a packed match. */
    static int end(long match) {
        return (int) match;
    }

    private static int domainEnd(char[] a, int from, int to) {
        int limit = Math.min(to, from + MAX_DOMAIN);
        int labels = 0;
        int lastLabelStart = -1;
        int lastLabelEnd = -1;
        int i = from;
        while (i < limit) {
            int labelStart = i;
            while (i < limit && (Chars.isAlnum(a[i]) || a[i] == '-')) {
                i++;
            }
            int len = i - labelStart;
            if (len == 0 || len > MAX_LABEL || a[labelStart] == '-' || a[i - 1] == '-') {
                break;
            }
            labels++;
            lastLabelStart = labelStart;
            lastLabelEnd = i;
            if (i + 1 < limit && a[i] == '.' && Chars.isAlnum(a[i + 1])) {
                i++;
            } else {
                break;
            }
        }
        if (labels < 2 || !isTopLevelDomain(a, lastLabelStart, lastLabelEnd)) {
            return -1;
        }
        return lastLabelEnd;
    }

    private static boolean isTopLevelDomain(char[] a, int from, int to) {
        if (to - from < 2 || to - from > 24) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!Chars.isLetter(a[i])) {
                return false;
            }
        }
        return !FILE_EXTENSIONS.contains(new String(a, from, to - from).toLowerCase(Locale.ROOT));
    }

    private static boolean isLocal(char c) {
        return Chars.isAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
    }
}
