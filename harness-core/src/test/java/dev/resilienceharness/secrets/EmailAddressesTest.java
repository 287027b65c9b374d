package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EmailAddressesTest {

    private static String match(String text) {
        char[] a = text.toCharArray();
        int at = text.indexOf('@');
        long m = EmailAddresses.match(a, 0, at, a.length);
        return m < 0 ? null : text.substring(EmailAddresses.start(m), EmailAddresses.end(m));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "write to fake.person@mailbox.test today|fake.person@mailbox.test",
        "<fake+tag@sub.example-mail.test>|fake+tag@sub.example-mail.test",
        "mailto:FAKE_User.7@Example.ORG.|FAKE_User.7@Example.ORG",
        "/u/.fake@mailbox.test/view|fake@mailbox.test",
    })
    void findsAddresses(String text, String address) {
        assertEquals(address, match(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"@param name", "icon@2x.png", "logo@3x.WEBP", "python@3.11", "root@localhost",
        "model@20240620", "a@b.c", "x.@mailbox.test", "fake@-bad.test", "fake@mailbox.t3st"})
    void leavesLookAlikesAlone(String text) {
        assertEquals(null, match(text), text);
    }
}
