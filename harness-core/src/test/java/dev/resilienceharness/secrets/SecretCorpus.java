package dev.resilienceharness.secrets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates the labelled corpus under {@code src/test/resources/secrets/corpus/}: one cassette per rule with
 * that rule's fake secrets planted in at least six encodings (plain, {@code \}{@code uXXXX} escapes, escaped
 * slashes, tool-call arguments JSON, a percent-encoded URL query, a header), decoy cassettes that must give no
 * finding, and {@code labels.json} listing every expected (rule, path, secret). Every secret comes from a seeded
 * {@link Random} and carries {@code FAKE} where its shape allows, so the corpus is reproducible and obviously
 * fake. Where a provider publishes an exact length (Slack, Stripe, Hugging Face, Groq), the fakes are a little
 * shorter: still inside this scanner's rules, but outside the exact patterns of hosted push protection, so the
 * repository can be pushed. {@code SecretCorpusTest} checks that the committed files are exactly what this class generates.
 *
 * <p>To regenerate: {@code java -cp <test classpath> dev.resilienceharness.secrets.SecretCorpus
 * harness-core/src/test/resources/secrets/corpus}.
 */
final class SecretCorpus {

    static final String LABELS = "labels.json";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String BASE64URL = ALNUM + "-_";
    private static final String BASE64 = ALNUM + "+/";
    private static final String PLAIN = "plain";
    private static final String UNICODE = "unicode-escaped";
    private static final String SLASHES = "escaped-slashes";
    private static final String ARGUMENTS = "tool-call-arguments";
    private static final String QUERY = "url-query";
    private static final String HEADER = "header";
    private static final String ARGS_PATH = "$.response.choices[0].message.tool_calls[0].function.arguments";

    private SecretCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "harness-core/src/test/resources/secrets/corpus");
        Files.createDirectories(dir);
        for (Map.Entry<String, String> file : files().entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
        }
    }

    /** File name to content, the labels file included. */
    static Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        ObjectNode labels = MAPPER.createObjectNode();
        for (Cassette c : cassettes()) {
            files.put(c.name, c.render());
            ArrayNode expected = labels.putObject(c.name).putArray("expected");
            for (Planted p : c.planted) {
                ObjectNode e = expected.addObject();
                e.put("rule", p.rule.id());
                e.put("path", p.path);
                e.put("encoding", p.encoding);
                e.put("secret", p.secret);
            }
        }
        files.put(LABELS, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(labels) + "\n");
        return files;
    }

    /** One expected finding. */
    record Planted(Rule rule, String path, String encoding, String secret) {
    }

    private static List<Cassette> cassettes() {
        List<Cassette> all = new ArrayList<>();
        all.add(openai());
        all.add(anthropic());
        all.add(google());
        all.add(huggingface());
        all.add(groq());
        all.add(aws());
        all.add(github());
        all.add(slack());
        all.add(stripe());
        all.add(jwt());
        all.add(privateKey());
        all.add(email());
        all.add(card());
        all.add(credentialHeader());
        all.add(highEntropy());
        all.add(decoyIds());
        all.add(decoyNearMisses());
        all.add(decoyImages());
        all.add(decoyRedacted());
        all.add(decoyKeyNames());
        return all;
    }

    // ---------------------------------------------------------------- token rules, one template

    /** How a token rule's secrets are placed in the standard template. */
    private record TokenCase(Rule rule, String file, List<String> secrets, String queryName, String argName,
                             String headerName, String headerValuePrefix, boolean basic, String basicUser) {
    }

    private static Cassette tokenCassette(TokenCase t, List<String> extras) {
        Cassette c = new Cassette(t.file);
        List<String> s = t.secrets;
        c.messages.add(literal("You are a helpful assistant."));
        c.messages.add(literal("Please keep this value safe: " + s.get(0) + " thanks."));
        c.plant(t.rule, "$.request.messages[1].content", PLAIN, s.get(0));
        c.messages.add(unicode("Stored value " + s.get(1), "Stored value ".length()));
        c.plant(t.rule, "$.request.messages[2].content", UNICODE, s.get(1));
        c.messages.add(slashes("See https://docs.example.test/keys/" + s.get(2) + "/view for details"));
        c.plant(t.rule, "$.request.messages[3].content", SLASHES, s.get(2));
        ObjectNode args = MAPPER.createObjectNode();
        args.put("title", "note");
        args.put(t.argName, s.get(3));
        c.arguments = MAPPER.writeValueAsString(args);
        c.plant(t.rule, ARGS_PATH + "." + t.argName, ARGUMENTS, s.get(3));
        c.url = "https://llm.example.test/v1/chat/completions?" + t.queryName + "=" + percent(s.get(4)) + "&stream=false";
        c.plant(t.rule, "$.request.url", QUERY, s.get(4));
        String headerValue = t.basic
                ? "Basic " + Base64.getEncoder().encodeToString((t.basicUser + ":" + s.get(5)).getBytes(StandardCharsets.UTF_8))
                : t.headerValuePrefix + s.get(5);
        if (t.basic && t.basicUser.isEmpty()) {
            // Stripe sends the key as the Basic user name with an empty password
            headerValue = "Basic " + Base64.getEncoder().encodeToString((s.get(5) + ":").getBytes(StandardCharsets.UTF_8));
        }
        c.headers.put(t.headerName, literal(headerValue));
        String headerPath = "$.request.headers." + t.headerName;
        if (CredentialHeaders.isCredential(t.headerName)) {
            c.plant(Rule.CREDENTIAL_HEADER, headerPath, HEADER, headerValue);
        }
        c.plant(t.rule, headerPath, HEADER, s.get(5));
        for (int i = 0; i < extras.size(); i++) {
            c.messages.add(literal("Another one: " + extras.get(i)));
            c.plant(t.rule, "$.request.messages[" + (4 + i) + "].content", PLAIN + "-variant", extras.get(i));
        }
        return c;
    }

    private static Cassette openai() {
        Random r = new Random(101);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("sk-proj-FAKE" + random(r, BASE64URL, 40) + "T" + i);
        }
        List<String> extras = List.of("sk-FAKE" + random(r, ALNUM, 44), "sk-svcacct-FAKE" + random(r, BASE64URL, 60),
                "sk-admin-FAKE" + random(r, ALNUM, 40));
        return tokenCassette(new TokenCase(Rule.OPENAI_KEY, "openai-key.json", s, "key", "note", "Authorization",
                "Bearer ", false, null), extras);
    }

    private static Cassette anthropic() {
        Random r = new Random(102);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("sk-ant-api03-FAKE" + random(r, BASE64URL, 76) + i + "AA");
        }
        return tokenCassette(new TokenCase(Rule.ANTHROPIC_KEY, "anthropic-key.json", s, "key", "note", "x-api-key",
                "", false, null), List.of("sk-ant-admin01-FAKE" + random(r, BASE64URL, 80) + "AA"));
    }

    private static Cassette google() {
        Random r = new Random(103);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("AIzaSyFAKE" + random(r, ALNUM, 28) + i);
        }
        return tokenCassette(new TokenCase(Rule.GOOGLE_API_KEY, "google-api-key.json", s, "key", "note",
                "x-goog-api-key", "", false, null), List.of("AIzaFAKE" + random(r, BASE64URL, 29) + "x9"));
    }

    private static Cassette huggingface() {
        Random r = new Random(104);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("hf_FAKE" + random(r, LETTERS, 27));
        }
        return tokenCassette(new TokenCase(Rule.HUGGINGFACE_TOKEN, "huggingface-token.json", s, "token_value", "note",
                "Authorization", "", true, "fake-user"), List.of("hf_FAKE" + random(r, ALNUM, 28)));
    }

    private static Cassette groq() {
        Random r = new Random(105);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("gsk_FAKE" + random(r, ALNUM, 44));
        }
        return tokenCassette(new TokenCase(Rule.GROQ_KEY, "groq-key.json", s, "key", "note", "Authorization",
                "Bearer ", false, null), List.of());
    }

    private static Cassette aws() {
        Random r = new Random(106);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("AKIAFAKE" + random(r, UPPER_DIGITS, 11) + i);
        }
        Cassette c = tokenCassette(new TokenCase(Rule.AWS_ACCESS_KEY_ID, "aws-access-key-id.json", s, "AccessKeyId",
                "note", "Authorization", "AWS4-HMAC-SHA256 Credential=", false, null),
                List.of("ASIAFAKE" + random(r, UPPER_DIGITS, 12)));
        // a real SigV4 header continues after the key id; the header value is the credential-header's secret
        String value = "AWS4-HMAC-SHA256 Credential=" + s.get(5) + "/20260101/us-east-1/bedrock/aws4_request, "
                + "SignedHeaders=host;x-amz-date, Signature=" + random(r, "0123456789abcdef", 64);
        c.headers.put("Authorization", literal(value));
        c.replaceSecret(Rule.CREDENTIAL_HEADER, "$.request.headers.Authorization", value);
        return c;
    }

    private static Cassette github() {
        Random r = new Random(107);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("ghp_FAKE" + random(r, ALNUM, 32));
        }
        return tokenCassette(new TokenCase(Rule.GITHUB_TOKEN, "github-token.json", s, "access", "note",
                "Authorization", "token ", false, null), List.of("github_pat_FAKE" + random(r, ALNUM, 18) + "_"
                + random(r, ALNUM, 59), "gho_FAKE" + random(r, ALNUM, 32), "ghs_FAKE" + random(r, ALNUM, 32)));
    }

    private static Cassette slack() {
        Random r = new Random(108);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("xoxb-000000000" + i + "-0000000000000-FAKE" + random(r, ALNUM, 16));
        }
        return tokenCassette(new TokenCase(Rule.SLACK_TOKEN, "slack-token.json", s, "key", "note", "Authorization",
                "Bearer ", false, null), List.of("xoxp-0000000000-0000000000-0000000000000-FAKE" + random(r, ALNUM, 16)));
    }

    private static Cassette stripe() {
        Random r = new Random(109);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("sk_test_FAKE" + random(r, ALNUM, 13) + i);
        }
        return tokenCassette(new TokenCase(Rule.STRIPE_KEY, "stripe-key.json", s, "key", "note", "Authorization",
                "", true, ""), List.of("rk_live_FAKE" + random(r, ALNUM, 13), "sk_live_FAKE" + random(r, ALNUM, 13)));
    }

    private static Cassette jwt() {
        Random r = new Random(110);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String header = base64url("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
            String payload = base64url("{\"sub\":\"fake-user-" + i + "\",\"name\":\"Fake Tester\",\"iat\":1767225600}");
            s.add(header + "." + payload + "." + random(r, BASE64URL, 43));
        }
        return tokenCassette(new TokenCase(Rule.JWT, "jwt.json", s.subList(0, 6), "assertion", "note",
                "Authorization", "Bearer ", false, null), s.subList(6, 7));
    }

    private static Cassette privateKey() {
        Random r = new Random(111);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add(pem(r, "RSA PRIVATE KEY"));
        }
        List<String> extras = List.of(pem(r, "EC PRIVATE KEY"), pem(r, "OPENSSH PRIVATE KEY"), pem(r, "PRIVATE KEY"),
                pem(r, "ENCRYPTED PRIVATE KEY"));
        return tokenCassette(new TokenCase(Rule.PRIVATE_KEY, "private-key.json", s, "pem", "key_pem",
                "X-Client-Key", "", false, null), extras);
    }

    private static Cassette email() {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.add("fake.person" + i + "@mailbox.test");
        }
        return tokenCassette(new TokenCase(Rule.EMAIL_ADDRESS, "email-address.json", s, "email", "to", "From", "",
                false, null), List.of("fake+tag@sub.example-mail.test", "FAKE_User.7@Example.ORG"));
    }

    private static Cassette card() {
        List<String> s = List.of("4111111111111111", "5555555555554444", "4242 4242 4242 4242",
                "4012-8888-8888-1881", "5105 1051 0510 5100", "6011111111111117");
        List<String> extras = List.of("3782 822463 10005", "371449635398431", "3530111333300000", "30569309025904",
                "2223003122003222", "6200000000000005", "4000056655665556");
        return tokenCassette(new TokenCase(Rule.CARD_NUMBER, "card-number.json", s, "card", "card_number",
                "X-Card-Number", "", false, null), extras);
    }

    // ---------------------------------------------------------------- rules with their own shape

    private static Cassette credentialHeader() {
        Cassette c = new Cassette("credential-header.json");
        c.messages.add(literal("You are a helpful assistant."));
        c.messages.add(literal("Summarise the attached page."));
        String bearer = "Bearer FAKE-session-0001-opaque";
        c.headers.put("Authorization", literal(bearer));
        c.plant(Rule.CREDENTIAL_HEADER, "$.request.headers.Authorization", PLAIN, bearer);
        String azure = "FAKE-azure-key-0002";
        c.headers.put("\\u0061pi-key", unicode(azure, 0));
        c.plant(Rule.CREDENTIAL_HEADER, "$.request.headers.api-key", UNICODE, azure);
        String cookie = "sid=FAKE0003; Path=/; HttpOnly";
        c.responseHeaders.put("set-cookie", slashes(cookie));
        c.plant(Rule.CREDENTIAL_HEADER, "$.response.headers.set-cookie", SLASHES, cookie);
        ObjectNode args = MAPPER.createObjectNode();
        args.put("url", "https://api.example.test/v2/search");
        args.putObject("headers").put("X-Api-Key", "FAKE-tool-key-0004");
        c.arguments = MAPPER.writeValueAsString(args);
        c.plant(Rule.CREDENTIAL_HEADER, ARGS_PATH + ".headers.X-Api-Key", ARGUMENTS, "FAKE-tool-key-0004");
        // a header value that is itself URL-encoded: the rule fires on the name, whatever the value
        String encoded = "session%3DFAKE0005%3B%20theme%3Ddark";
        c.extra.put("retry", "{\n      \"headers\" : {\n        \"COOKIE\" : " + literal(encoded) + "\n      }\n    }");
        c.plant(Rule.CREDENTIAL_HEADER, "$.request.retry.headers.COOKIE", "percent-encoded-value", encoded);
        c.headers.put("x-goog-api-key", "[ " + literal("FAKE-goog-0006") + " ]");
        c.plant(Rule.CREDENTIAL_HEADER, "$.request.headers.x-goog-api-key[0]", HEADER + "-array-value",
                "FAKE-goog-0006");
        String transport = "{\"headers\": {\"Proxy-Authorization\": \"Basic ZmFrZTpmYWtl\"}}";
        c.extra.put("transport", literal(transport));
        c.plant(Rule.CREDENTIAL_HEADER, "$.request.transport.headers.Proxy-Authorization", ARGUMENTS + "-variant",
                "Basic ZmFrZTpmYWtl");
        return c;
    }

    private static Cassette highEntropy() {
        Random r = new Random(112);
        Cassette c = new Cassette("high-entropy-secret.json");
        c.messages.add(literal("You are a helpful assistant."));
        String plain = randomSecret(r, ALNUM, 32);
        String escaped = randomSecret(r, ALNUM, 28);
        String withSlash = randomSecret(r, BASE64, 36, '/');
        c.extra.put("metadata", "{\n      \"api_key\" : " + literal(plain)
                + ",\n      \"client_secret\" : " + unicode(escaped, 0)
                + ",\n      \"aws_secret_access_key\" : " + slashes(withSlash) + "\n    }");
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.metadata.api_key", PLAIN, plain);
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.metadata.client_secret", UNICODE, escaped);
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.metadata.aws_secret_access_key", SLASHES, withSlash);
        String arg = randomSecret(r, ALNUM, 24);
        ObjectNode args = MAPPER.createObjectNode();
        args.put("username", "svc-reporting");
        args.put("password", arg);
        c.arguments = MAPPER.writeValueAsString(args);
        c.plant(Rule.HIGH_ENTROPY_SECRET, ARGS_PATH + ".password", ARGUMENTS, arg);
        String query = randomSecret(r, BASE64URL, 40);
        c.url = "https://llm.example.test/v1/chat/completions?api_key=" + percent(query) + "&stream=false";
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.url", QUERY, query);
        String header = randomSecret(r, ALNUM, 20);
        c.headers.put("X-Auth-Token", literal(header));
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.headers.X-Auth-Token", HEADER, header);
        String basicPassword = randomSecret(r, ALNUM, 22);
        String basic = "Basic " + Base64.getEncoder().encodeToString(("svc-account:" + basicPassword)
                .getBytes(StandardCharsets.UTF_8));
        c.headers.put("Proxy-Authorization", literal(basic));
        c.plant(Rule.CREDENTIAL_HEADER, "$.request.headers.Proxy-Authorization", HEADER, basic);
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.headers.Proxy-Authorization", HEADER + "-basic", basicPassword);
        String shell = randomSecret(r, ALNUM, 30);
        c.messages.add(literal("Run: export SERVICE_API_KEY=" + shell + " && ./deploy.sh"));
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.messages[1].content", PLAIN + "-pair", shell);
        String yaml = randomSecret(r, ALNUM, 26);
        c.messages.add(literal("config:\n  auth_token: \"" + yaml + "\"\n  region: eu"));
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.messages[2].content", PLAIN + "-yaml", yaml);
        String bearer = randomSecret(r, ALNUM, 36);
        c.extra.put("auth", literal("Bearer " + bearer));
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.auth", PLAIN + "-scheme", bearer);
        String hex = randomHex(r, 32);
        c.extra.put("webhook_secret", literal(hex));
        c.plant(Rule.HIGH_ENTROPY_SECRET, "$.request.webhook_secret", PLAIN + "-hex", hex);
        return c;
    }

    // ---------------------------------------------------------------- decoys: zero findings

    private static Cassette decoyIds() {
        Random r = new Random(201);
        Cassette c = new Cassette("decoy-ids.json");
        c.messages.add(literal("You are a helpful assistant."));
        c.messages.add(literal("What is the weather in Lisbon tomorrow?"));
        c.headers.put("Content-Type", literal("application/json"));
        c.headers.put("User-Agent", literal("resilience-harness/0.1.0 (Java 17)"));
        c.headers.put("x-request-id", literal(uuid(r)));
        c.headers.put("Idempotency-Key", literal(uuid(r)));
        c.headers.put("OpenAI-Organization", literal("org-FAKE" + random(r, ALNUM, 16)));
        c.responseHeaders.put("x-request-id", literal("req_" + random(r, "0123456789abcdef", 32)));
        c.responseHeaders.put("openai-processing-ms", literal("412"));
        c.responseHeaders.put("x-ratelimit-remaining-tokens", literal("149984"));
        c.responseHeaders.put("x-ratelimit-reset-tokens", literal("6ms"));
        c.responseHeaders.put("cf-ray", literal(random(r, "0123456789abcdef", 16) + "-LIS"));
        c.responseHeaders.put("etag", literal("W/\"" + random(r, "0123456789abcdef", 40) + "\""));
        c.responseId = "chatcmpl-FAKE" + random(r, ALNUM, 29);
        c.toolCallId = "call_FAKE" + random(r, ALNUM, 20);
        c.arguments = "{\"city\":\"Lisbon\",\"date\":\"2026-01-02\",\"units\":\"metric\"}";
        c.extra.put("content_sha256", literal(random(r, "0123456789abcdef", 64)));
        c.extra.put("commit", literal(random(r, "0123456789abcdef", 40)));
        c.extra.put("trace_id", literal(uuid(r)));
        c.extra.put("session", literal("session-2026-01-01T10:00:00Z"));
        c.extra.put("models", "[ \"gpt-4o-mini-2024-07-18\", \"claude-3-5-sonnet-20241022\", \"gemini-1.5-pro-002\", "
                + "\"text-embedding-3-small\", \"o1-preview\", \"llama-3.1-70b-versatile\" ]");
        c.extra.put("max_tokens", "256");
        c.extra.put("token_type", literal("bearer"));
        c.extra.put("api_key_env", literal("PROVIDER_API_KEY"));
        c.extra.put("msg_id", literal("msg_01FAKE" + random(r, ALNUM, 18)));
        c.extra.put("batch", literal("batch_FAKE" + random(r, ALNUM, 24)));
        return c;
    }

    private static Cassette decoyNearMisses() {
        Cassette c = new Cassette("decoy-near-misses.json");
        c.messages.add(literal("You are a helpful assistant."));
        String[] texts = {
            "We use sk-learn and desk-proj-2024 for the models; sk-proj-short is not a key.",
            "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is the documented placeholder.",
            "AIzaTooShort and AKIA1234 and AKIAabcdefghijklmnop are not keys.",
            "ghp_short, github_pat_short, gsk_short, hf_hub_download(repo_id) and rk_live_short are not tokens.",
            "xoxb-words-only-here has no digits; sk_test_short is too short.",
            "A JWT starts eyJhbGciOiJIUzI1NiJ9 but this has one part; eyJ.eyJ.x is too short.",
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAFAKE\n-----END PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEFAKE\n-----END CERTIFICATE-----",
            "Card-like numbers: 4111111111111112 fails Luhn, 1234567812345670 has no network, 0000000000000000 too.",
            "Order 98765432109876543 and timestamp 1767225600000 and phone +1-555-0100 are fine.",
            "Decorators: @param name, @Override; files icon@2x.png and logo@3x.webp; python@3.11; root@localhost.",
            "The Vertex model claude-3-5-sonnet@20240620 and version 1.2.3 and date 2026-01-01.",
            "Basic YWxhZGRpbjpvcGVuc2VzYW1l uses a dictionary password; Basic auth is disabled.",
            "Bearer token required; token: abcdefghijklmnopqrstuvwx; password: hunter2; api_key=${API_KEY}",
            "In Python: client = OpenAI(api_key=os.environ['OPENAI_API_KEY'])",
            "UUID 123e4567-e89b-12d3-a456-426614174000 and sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709.",
        };
        for (String t : texts) {
            c.messages.add(literal(t));
        }
        c.url = "https://llm.example.test/v1/chat/completions?api-version=2024-06-01&stream=true";
        return c;
    }

    private static Cassette decoyImages() {
        Random r = new Random(203);
        Cassette c = new Cassette("decoy-images.json");
        byte[] png = new byte[6000];
        r.nextBytes(png);
        png[0] = (byte) 0x89;
        png[1] = 'P';
        png[2] = 'N';
        png[3] = 'G';
        String b64 = Base64.getEncoder().encodeToString(png);
        c.messages.add(literal("You are a helpful assistant."));
        c.messages.add("[ {\n        \"type\" : \"text\",\n        \"text\" : \"What is in this picture?\"\n      }, {\n"
                + "        \"type\" : \"image_url\",\n        \"image_url\" : {\n          \"url\" : "
                + literal("data:image/png;base64," + b64) + "\n        }\n      } ]");
        byte[] jpeg = new byte[3000];
        r.nextBytes(jpeg);
        c.extra.put("b64_json", literal(Base64.getEncoder().encodeToString(jpeg)));
        c.extra.put("image_token", literal("data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg)));
        return c;
    }

    private static Cassette decoyRedacted() {
        Cassette c = new Cassette("decoy-redacted.json");
        c.messages.add(literal("You are a helpful assistant."));
        c.messages.add(literal("My key is [REDACTED:openai-key:1a2b3c4d] and my mail [REDACTED:email-address:0f0f0f0f]."));
        c.url = "https://llm.example.test/v1/chat/completions?api_key=[REDACTED:high-entropy-secret:9a8b7c6d]";
        c.arguments = "{\"api_key\":\"[REDACTED:high-entropy-secret:12345678]\",\"note\":\"Bearer [REDACTED:jwt:abcdef01]\"}";
        c.extra.put("password", literal("[REDACTED:high-entropy-secret:deadbeef]"));
        c.headers.put("X-Auth-Token", literal("[REDACTED:high-entropy-secret:cafebabe]"));
        return c;
    }

    private static Cassette decoyKeyNames() {
        Cassette c = new Cassette("decoy-key-names.json");
        c.messages.add(literal("You are a helpful assistant."));
        String[][] fields = {
            {"api_key", "${OPENAI_API_KEY}"}, {"password", "changeme"}, {"secret", "YOUR_SECRET_HERE"},
            {"token", "<redacted>"}, {"auth", "none"}, {"client_secret", "ReplaceWithYourOwnSecret"},
            {"access_key", "not-a-real-access-key"}, {"private_key", "see the vault entry payments/prod"},
            {"refresh_token", ""}, {"passwd", "correcthorsebatterystaple"}, {"apiKey", "MySecretPassword"},
            {"x-api-key-name", "primary"}, {"secret_ref", "vault:kv/data/llm#key"}, {"token_count", "1024"},
            {"auth_token", "TestingToken12345"}, {"session_token", "chatcmpl-FAKE0123456789abcdefABCDEF"},
            {"id_token", "call_FAKE0123456789abcdefABCD"}, {"access_token", "fp_44709d6fcb0123"},
            {"webhook_secret", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
            {"signing_secret", "123e4567-e89b-12d3-a456-426614174000"},
            {"author", "Xk9fQ2mLp8Rt5vWz3YbN"}, {"max_tokens", "4096"}, {"token_type", "Xk9fQ2mLp8Rt5vWz3YbN"},
        };
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < fields.length; i++) {
            sb.append(i == 0 ? "\n" : ",\n").append("      ").append(literal(fields[i][0])).append(" : ")
                    .append(literal(fields[i][1]));
        }
        c.extra.put("settings", sb.append("\n    }").toString());
        return c;
    }

    // ---------------------------------------------------------------- cassette text

    /** A cassette written by hand, so escapes stay exactly as planted. */
    private static final class Cassette {

        final String name;
        final List<Planted> planted = new ArrayList<>();
        final List<String> messages = new ArrayList<>();
        final Map<String, String> headers = new LinkedHashMap<>();
        final Map<String, String> responseHeaders = new LinkedHashMap<>();
        final Map<String, String> extra = new LinkedHashMap<>();
        String url = "https://llm.example.test/v1/chat/completions";
        String arguments = "{\"title\":\"note\"}";
        String responseId = "chatcmpl-FAKE00000000000000000000000001";
        String toolCallId = "call_FAKE00000000000000000001";

        Cassette(String name) {
            this.name = name;
        }

        void plant(Rule rule, String path, String encoding, String secret) {
            planted.add(new Planted(rule, path, encoding, secret));
        }

        void replaceSecret(Rule rule, String path, String secret) {
            for (int i = 0; i < planted.size(); i++) {
                Planted p = planted.get(i);
                if (p.rule == rule && p.path.equals(path)) {
                    planted.set(i, new Planted(rule, path, p.encoding, secret));
                }
            }
        }

        String render() {
            StringBuilder sb = new StringBuilder("{\n  \"request\" : {\n");
            sb.append("    \"url\" : ").append(literal(url)).append(",\n");
            sb.append("    \"headers\" : ").append(object(headers, "    ")).append(",\n");
            for (Map.Entry<String, String> e : extra.entrySet()) {
                sb.append("    ").append(literal(e.getKey())).append(" : ").append(e.getValue()).append(",\n");
            }
            sb.append("    \"model\" : \"gpt-4o-mini\",\n    \"messages\" : [");
            for (int i = 0; i < messages.size(); i++) {
                String role = i == 0 ? "system" : "user";
                sb.append(i == 0 ? " {\n" : ", {\n").append("      \"role\" : \"").append(role)
                        .append("\",\n      \"content\" : ").append(messages.get(i)).append("\n    }");
            }
            sb.append(" ],\n    \"temperature\" : 0.2\n  },\n");
            sb.append("  \"response\" : {\n");
            sb.append("    \"id\" : ").append(literal(responseId)).append(",\n");
            sb.append("    \"object\" : \"chat.completion\",\n    \"created\" : 1767225600,\n");
            sb.append("    \"model\" : \"gpt-4o-mini-2024-07-18\",\n    \"system_fingerprint\" : \"fp_44709d6fcb\",\n");
            sb.append("    \"headers\" : ").append(object(responseHeaders, "    ")).append(",\n");
            sb.append("    \"choices\" : [ {\n      \"index\" : 0,\n      \"message\" : {\n");
            sb.append("        \"role\" : \"assistant\",\n        \"content\" : null,\n");
            sb.append("        \"tool_calls\" : [ {\n          \"id\" : ").append(literal(toolCallId)).append(",\n");
            sb.append("          \"type\" : \"function\",\n          \"function\" : {\n");
            sb.append("            \"name\" : \"store_note\",\n            \"arguments\" : ").append(literal(arguments));
            sb.append("\n          }\n        } ]\n      },\n      \"finish_reason\" : \"tool_calls\"\n    } ],\n");
            sb.append("    \"usage\" : {\n      \"prompt_tokens\" : 42,\n      \"completion_tokens\" : 17,\n");
            sb.append("      \"total_tokens\" : 59\n    }\n  },\n");
            sb.append("  \"timing\" : {\n    \"first_token_ms\" : 420,\n    \"total_ms\" : 1800\n  }\n}\n");
            return sb.toString();
        }

        private static String object(Map<String, String> fields, String indent) {
            if (fields.isEmpty()) {
                return "{ }";
            }
            StringBuilder sb = new StringBuilder("{");
            String sep = "\n";
            for (Map.Entry<String, String> e : fields.entrySet()) {
                String key = e.getKey().startsWith("\\u") ? "\"" + e.getKey() + "\"" : literal(e.getKey());
                sb.append(sep).append(indent).append("  ").append(key).append(" : ").append(e.getValue());
                sep = ",\n";
            }
            return sb.append('\n').append(indent).append('}').toString();
        }
    }

    // ---------------------------------------------------------------- encodings

    /** A JSON string literal, escaped the ordinary way. */
    static String literal(String text) {
        return MAPPER.writeValueAsString(text);
    }

    /**
     * A JSON string literal in which the secret part (from {@code secretStart}) has its first two characters and
     * every fourth one after written as {@code \}{@code uXXXX}.
     */
    static String unicode(String text, int secretStart) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int k = i - secretStart;
            if (k >= 0 && (k < 2 || k % 4 == 0)) {
                sb.append(String.format(k % 8 == 0 ? "\\u%04X" : "\\u%04x", (int) c));
            } else {
                String lit = literal(String.valueOf(c));
                sb.append(lit, 1, lit.length() - 1);
            }
        }
        return sb.append('"').toString();
    }

    /** A JSON string literal with every {@code /} written as {@code \/}. */
    static String slashes(String text) {
        return literal(text).replace("/", "\\/");
    }

    /** Percent-encodes everything but letters and digits, and every third letter or digit too. */
    static String percent(String text) {
        StringBuilder sb = new StringBuilder();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80 && Character.isLetterOrDigit(b) && i % 3 != 0) {
                sb.append((char) b);
            } else {
                sb.append('%').append(String.format(i % 2 == 0 ? "%02X" : "%02x", b));
            }
        }
        return sb.toString();
    }

    private static String random(Random r, String alphabet, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** A random value the high-entropy rule must catch, with "FAKE" in it and {@code must} characters present. */
    private static String randomSecret(Random r, String alphabet, int length, char... must) {
        while (true) {
            String s = "FAKE" + random(r, alphabet, length - 4);
            boolean ok = HighEntropy.isRandom(s);
            for (char c : must) {
                ok &= s.indexOf(c) >= 0;
            }
            if (ok) {
                return s;
            }
        }
    }

    /** Random hex the high-entropy rule must catch; hex has no room for a FAKE marker. */
    private static String randomHex(Random r, int length) {
        while (true) {
            String s = random(r, "0123456789abcdef", length);
            if (HighEntropy.isRandom(s)) {
                return s;
            }
        }
    }

    private static String base64url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String pem(Random r, String label) {
        StringBuilder sb = new StringBuilder("-----BEGIN ").append(label).append("-----\n");
        sb.append("MIIEFAKE").append(random(r, BASE64, 56)).append('\n');
        for (int line = 0; line < 3; line++) {
            sb.append(random(r, BASE64, 30)).append('/').append(random(r, BASE64, 33)).append('\n');
        }
        sb.append(random(r, BASE64, 20)).append("==\n");
        return sb.append("-----END ").append(label).append("-----").toString();
    }

    private static String uuid(Random r) {
        String h = random(r, "0123456789abcdef", 32);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-4" + h.substring(13, 16) + "-a" + h.substring(17, 20)
                + "-" + h.substring(20);
    }
}
