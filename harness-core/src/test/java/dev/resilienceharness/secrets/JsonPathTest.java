package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JsonPathTest {

    @Test
    void plainNamesUseDotsOthersBrackets() {
        StringBuilder path = new StringBuilder(JsonPath.ROOT);
        JsonPath.appendName(path, "request", false);
        JsonPath.appendName(path, "headers", false);
        JsonPath.appendName(path, "x-api-key", false);
        assertEquals("$.request.headers.x-api-key", path.toString());
        StringBuilder odd = new StringBuilder(JsonPath.ROOT);
        JsonPath.appendName(odd, "a b", false);
        JsonPath.appendIndex(odd, 3);
        JsonPath.appendName(odd, "it's", false);
        JsonPath.appendName(odd, "0day", false);
        assertEquals("$['a b'][3]['it\\'s']['0day']", odd.toString());
    }

    @Test
    void aNameHoldingASecretIsMasked() {
        StringBuilder path = new StringBuilder(JsonPath.ROOT);
        JsonPath.appendName(path, "sk-proj-FAKEabcdefghijklmnop0123456789", true);
        assertEquals("$['sk-p****']", path.toString());
    }
}
