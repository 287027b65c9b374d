package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The signer against AWS's published Signature Version 4 test suite: the vectors {@code get-vanilla},
 * {@code get-vanilla-with-session-token} and {@code post-x-www-form-urlencoded}, as
 * https://github.com/awslabs/aws-c-auth/tree/main/tests/aws-signing-test-suite/v4 holds them (files
 * {@code context.json}, {@code header-canonical-request.txt}, {@code header-string-to-sign.txt},
 * {@code header-signed-request.txt}; read at commit 495329c2433034bd8fd53fc6ba9e0202d3fac876), the suite AWS's
 * "Signature Version 4 test suite" page describes. Their credentials are AWS's documentation example.
 */
class AwsSigV4Test {

    private static final AwsSigV4.Credentials EXAMPLE = new AwsSigV4.Credentials("AKIDEXAMPLE",
            "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", null);
    private static final Instant AT = Instant.parse("2015-08-30T12:36:00Z");
    private static final URI HOST = URI.create("https://example.amazonaws.com/");

    private static AwsSigV4 signer(AwsSigV4.Credentials credentials) {
        return AwsSigV4.of(credentials, "us-east-1", "service");
    }

    @Test
    void getVanilla() {
        Map<String, String> added = signer(EXAMPLE).sign("GET", HOST, Map.of(), new byte[0], AT, false);
        assertEquals("20150830T123600Z", added.get("X-Amz-Date"));
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                + " SignedHeaders=host;x-amz-date,"
                + " Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
                added.get("Authorization"));
        assertEquals(2, added.size(), added.toString());
    }

    @Test
    void getVanillaCanonicalRequestAndStringToSignAreThePublishedOnes() {
        TreeMap<String, String> headers = new TreeMap<>(Map.of("host", "example.amazonaws.com",
                "x-amz-date", "20150830T123600Z"));
        String canonical = AwsSigV4.canonicalRequest("GET", HOST, headers,
                AwsSigV4.hex(AwsSigV4.sha256(new byte[0])));
        assertEquals("""
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855""", canonical);
        assertEquals("""
                AWS4-HMAC-SHA256
                20150830T123600Z
                20150830/us-east-1/service/aws4_request
                bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63""",
                AwsSigV4.stringToSign("20150830T123600Z", "20150830/us-east-1/service/aws4_request", canonical));
    }

    @Test
    void getVanillaWithSessionTokenSignsTheToken() {
        AwsSigV4.Credentials temporary = new AwsSigV4.Credentials("AKIDEXAMPLE",
                "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267");
        Map<String, String> added = signer(temporary).sign("GET", HOST, Map.of(), new byte[0], AT, false);
        assertEquals(temporary.sessionToken(), added.get("X-Amz-Security-Token"));
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                + " SignedHeaders=host;x-amz-date;x-amz-security-token,"
                + " Signature=07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8",
                added.get("Authorization"));
    }

    @Test
    void postWithABodySignsItsHash() {
        byte[] body = "Param1=value1".getBytes(StandardCharsets.UTF_8);
        Map<String, String> added = signer(EXAMPLE).sign("POST", HOST, Map.of("Content-Length", "13",
                "Content-Type", "application/x-www-form-urlencoded"), body, AT, true);
        assertEquals("9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
                added.get("x-amz-content-sha256"));
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                + " SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date,"
                + " Signature=d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b",
                added.get("Authorization"));
    }

    @Test
    void anotherBodyIsAnotherSignature() {
        Map<String, String> one = signer(EXAMPLE).sign("POST", HOST, Map.of(), "{\"a\":1}".getBytes(
                StandardCharsets.UTF_8), AT, false);
        Map<String, String> two = signer(EXAMPLE).sign("POST", HOST, Map.of(), "{\"a\":2}".getBytes(
                StandardCharsets.UTF_8), AT, false);
        assertNotEquals(one.get("Authorization"), two.get("Authorization"));
    }

    @Test
    void anEncodedPathIsEncodedAgainAndAPortIsPartOfTheHost() {
        TreeMap<String, String> headers = new TreeMap<>(Map.of("host", "127.0.0.1:8080"));
        String canonical = AwsSigV4.canonicalRequest("POST",
                URI.create("http://127.0.0.1:8080/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse?b=2&a=x%20y"),
                headers, "h");
        assertEquals("POST\n/model/anthropic.claude-3-haiku-20240307-v1%253A0/converse\na=x%20y&b=2\n"
                + "host:127.0.0.1:8080\n\nhost\nh", canonical);
        Map<String, String> added = signer(EXAMPLE).sign("POST", URI.create("http://127.0.0.1:8080/"), Map.of(),
                new byte[0], AT, false);
        assertNotEquals(signer(EXAMPLE).sign("POST", URI.create("http://127.0.0.1:8081/"), Map.of(), new byte[0], AT,
                false).get("Authorization"), added.get("Authorization"), "the port is signed with the host");
        assertEquals("127.0.0.1:8080", AwsSigV4.host(URI.create("http://127.0.0.1:8080/")));
        assertEquals("bedrock-runtime.eu-west-1.amazonaws.com",
                AwsSigV4.host(URI.create("https://bedrock-runtime.eu-west-1.amazonaws.com:443/")),
                "the scheme's own port is not sent, so not signed");
    }

    @Test
    void credentialsNeverPrintTheirSecret() {
        AwsSigV4.Credentials c = new AwsSigV4.Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                "token-value");
        assertFalse(c.toString().contains("EXAMPLEKEY"), c.toString());
        assertFalse(c.toString().contains("token-value"), c.toString());
    }
}
