package dev.resilienceharness.secrets;

/**
 * Payment card numbers: 13 to 19 digits written together or in the usual groups (4-4-4-4, 4-6-5, 4-6-4,
 * 4-4-4-4-3, separated by one kind of space or dash), with a card network's prefix and length (Visa,
 * Mastercard, American Express, Discover, JCB, Diners Club, UnionPay) and a valid Luhn check digit. Reads at most
 * 23 characters from where it starts.
 */
final class CardNumbers {

    private static final int MAX_DIGITS = 19;
    private static final int[][] GROUPINGS = {{4, 4, 4, 4}, {4, 6, 5}, {4, 6, 4}, {4, 4, 4, 4, 3}};

    private CardNumbers() {
    }

    /**
     * Where the card number starting at the run {@code a[start, runEnd)} ends, or -1.
     *
     * @param to the end of the text
     */
    static int end(char[] a, int start, int runEnd, int to) {
        int runLen = runEnd - start;
        if (runLen < 13 && !(runLen == 4 && runEnd < to && a[runEnd] == ' ')) {
            // neither a whole number nor the first group of a spaced one
            return -1;
        }
        int[] digits = new int[MAX_DIGITS];
        int[] groups = new int[5];
        int count = 0;
        int groupCount = 0;
        int groupLen = 0;
        char separator = 0;
        int i = start;
        int limit = Math.min(to, start + MAX_DIGITS + 4);
        while (i < limit) {
            char c = a[i];
            if (Chars.isDigit(c)) {
                if (count == MAX_DIGITS) {
                    return -1;
                }
                digits[count++] = c - '0';
                groupLen++;
                i++;
                continue;
            }
            if ((c == ' ' || c == '-') && groupLen > 0 && (separator == 0 || separator == c)
                    && groupCount < groups.length - 1 && i + 1 < to && Chars.isDigit(a[i + 1])) {
                separator = c;
                groups[groupCount++] = groupLen;
                groupLen = 0;
                i++;
                continue;
            }
            break;
        }
        if (i < to && (Chars.isToken(a[i]) || Chars.isDigit(a[i]))) {
            return -1;
        }
        groups[groupCount++] = groupLen;
        if (separator != 0 && !isGrouping(groups, groupCount)) {
            return -1;
        }
        return isCardNumber(digits, count) ? i : -1;
    }

    private static boolean isGrouping(int[] groups, int count) {
        for (int[] g : GROUPINGS) {
            if (g.length == count) {
                boolean same = true;
                for (int k = 0; k < count; k++) {
                    same &= g[k] == groups[k];
                }
                if (same) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the digits have a card network's prefix and length and pass the Luhn check. */
    static boolean isCardNumber(int[] digits, int count) {
        return count >= 13 && count <= MAX_DIGITS && networkAllows(digits, count) && luhn(digits, count);
    }

    private static boolean networkAllows(int[] d, int n) {
        int p2 = d[0] * 10 + d[1];
        int p3 = p2 * 10 + d[2];
        int p4 = p3 * 10 + d[3];
        if (d[0] == 4) {
            return n == 13 || n == 16 || n == 19;
        }
        if (p2 >= 51 && p2 <= 55 || p4 >= 2221 && p4 <= 2720) {
            return n == 16;
        }
        if (p2 == 34 || p2 == 37) {
            return n == 15;
        }
        if (p4 == 6011 || p3 >= 644 && p3 <= 649 || p2 == 65 || p4 >= 3528 && p4 <= 3589 || p2 == 62) {
            return n >= 16;
        }
        if (p3 >= 300 && p3 <= 305 || p2 == 36 || p2 == 38 || p2 == 39) {
            return n >= 14;
        }
        return false;
    }

    /** The Luhn (mod 10) check over all digits, the last being the check digit. */
    static boolean luhn(int[] d, int n) {
        int sum = 0;
        boolean twice = false;
        for (int i = n - 1; i >= 0; i--) {
            int v = d[i];
            if (twice) {
                v *= 2;
                if (v > 9) {
                    v -= 9;
                }
            }
            sum += v;
            twice = !twice;
        }
        return sum % 10 == 0;
    }
}
