package dev.resilienceharness.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigMessagesTest {

    @Test
    void unknownKeyWithAndWithoutSuggestion() {
        assertEquals("unknown key 'polcy'; did you mean 'policy'? The keys allowed here are: version, policy",
                ConfigMessages.unknownKey("polcy", "policy", List.of("version", "policy")));
        assertEquals("unknown key 'x'; the keys allowed here are: version, policy",
                ConfigMessages.unknownKey("x", null, List.of("version", "policy")));
    }

    @Test
    void hostileInputMessages() {
        assertEquals("the file is 5000000 bytes; the limit is 4 MiB", ConfigMessages.tooLarge(5_000_000));
        assertEquals("the file is not valid UTF-8: byte 0x0a cannot be decoded here; save the file as UTF-8",
                ConfigMessages.notUtf8(10));
        assertEquals("the character U+001B is not allowed in YAML; remove it", ConfigMessages.forbiddenCharacter(27));
        assertEquals("the file is empty: it needs at least version, policy.max_total_wait and scenarios",
                ConfigMessages.empty());
    }

    @Test
    void longValuesAreShortened() {
        assertEquals("expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got '" + "x".repeat(60)
                + "...'", ConfigMessages.badDuration("x".repeat(500)));
    }

    @Test
    void suggestionsComeLastInOneOf() {
        assertEquals("expected one of ok, degraded, stopped, got the text 'stoped'; did you mean 'stopped'?",
                ConfigMessages.oneOf(List.of("ok", "degraded", "stopped"), "stopped", "the text 'stoped'"));
    }
}
