package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CardNumbersTest {

    private static String match(String text) {
        char[] a = text.toCharArray();
        int start = 0;
        while (!Chars.isDigit(a[start])) {
            start++;
        }
        int runEnd = start;
        while (runEnd < a.length && Chars.isToken(a[runEnd])) {
            runEnd++;
        }
        int end = CardNumbers.end(a, start, runEnd, a.length);
        return end < 0 ? null : text.substring(start, end);
    }

    @ParameterizedTest
    @ValueSource(strings = {"4111111111111111", "4242 4242 4242 4242", "4012-8888-8888-1881", "5555555555554444",
        "2223003122003222", "378282246310005", "3782 822463 10005", "6011111111111117", "3530111333300000",
        "30569309025904", "6200000000000005", "4222222222222"})
    void findsTestCardsOfEveryNetwork(String card) {
        assertEquals(card, match("pay with " + card + " now"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4111111111111112", "1234567812345670", "0000000000000000", "4111 1111 1111 111",
        "4111-1111 1111-1111", "41111 11111 11111 1", "4111111111111111a", "98765432109876543", "1767225600000",
        "5555555555554444444", "37828224631000"})
    void leavesOtherNumbersAlone(String text) {
        assertEquals(null, match("x " + text + " y"), text);
    }

    @Test
    void luhnChecksTheLastDigit() {
        assertTrue(CardNumbers.luhn(new int[] {7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 3}, 11));
        assertFalse(CardNumbers.luhn(new int[] {7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 4}, 11));
    }
}
