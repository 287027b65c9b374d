package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apiguardian.api.API;

/**
 * Signs a request with AWS Signature Version 4 in its {@code Authorization} header, as AWS documents it: a canonical
 * request, a string to sign, and a key derived from the secret by HMAC-SHA256 over the date, region, service and
 * {@code aws4_request}. It signs {@code host}, {@code x-amz-date}, {@code x-amz-security-token} (with temporary
 * credentials) and the headers it is given; paths are encoded twice, as every AWS service but S3 expects. Immutable.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class AwsSigV4 {

    /** The algorithm named in the string to sign and the {@code Authorization} header. */
    static final String ALGORITHM = "AWS4-HMAC-SHA256";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * The credentials a request is signed with, read from the environment and never written anywhere.
     *
     * @param sessionToken {@code AWS_SESSION_TOKEN} of temporary credentials, or {@code null}
     */
    public record Credentials(String accessKeyId, String secretAccessKey, String sessionToken) {

        public Credentials {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
        }

        /** Names the key id only: a record's default would print the secret. */
        @Override
        public String toString() {
            return "Credentials[" + accessKeyId + ", secret ****" + (sessionToken == null ? "" : ", session token ****")
                    + "]";
        }
    }

    private final Credentials credentials;
    private final String region;
    private final String service;

    private AwsSigV4(Credentials credentials, String region, String service) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.region = Objects.requireNonNull(region, "region");
        this.service = Objects.requireNonNull(service, "service");
    }

    /** A signer for {@code service} (Bedrock's is {@code bedrock}) in {@code region}. */
    public static AwsSigV4 of(Credentials credentials, String region, String service) {
        return new AwsSigV4(credentials, region, service);
    }

    /** The region requests are signed for. */
    public String region() {
        return region;
    }

    /**
     * The headers that sign a request: {@code X-Amz-Date}, {@code X-Amz-Security-Token} with temporary credentials,
     * {@code x-amz-content-sha256} when {@code contentSha256} asks for it, and {@code Authorization}. The
     * {@code Host} signed is {@code uri}'s host, and its port unless it is the scheme's, as the JDK's HTTP client
     * sends it.
     *
     * @param headers other headers to sign, sent as they are given
     */
    public Map<String, String> sign(String method, URI uri, Map<String, String> headers, byte[] body, Instant at,
            boolean contentSha256) {
        String stamp = STAMP.format(at);
        String payload = hex(sha256(body));
        Map<String, String> added = new LinkedHashMap<>();
        added.put("X-Amz-Date", stamp);
        if (credentials.sessionToken() != null) {
            added.put("X-Amz-Security-Token", credentials.sessionToken());
        }
        if (contentSha256) {
            added.put("x-amz-content-sha256", payload);
        }
        TreeMap<String, String> signed = new TreeMap<>();
        headers.forEach((name, value) -> signed.put(name.toLowerCase(Locale.ROOT), value));
        added.forEach((name, value) -> signed.put(name.toLowerCase(Locale.ROOT), value));
        signed.put("host", host(uri));
        String canonical = canonicalRequest(method, uri, signed, payload);
        String scope = stamp.substring(0, 8) + "/" + region + "/" + service + "/aws4_request";
        String toSign = stringToSign(stamp, scope, canonical);
        String signature = hex(hmac(signingKey(stamp.substring(0, 8)), toSign));
        added.put("Authorization", ALGORITHM + " Credential=" + credentials.accessKeyId() + "/" + scope
                + ", SignedHeaders=" + String.join(";", signed.keySet()) + ", Signature=" + signature);
        return added;
    }

    /** The {@code Host} an HTTP client sends for {@code uri}: its host, and its port unless it is the scheme's. */
    static String host(URI uri) {
        int port = uri.getPort();
        boolean standard = port == -1 || port == 443 && "https".equalsIgnoreCase(uri.getScheme())
                || port == 80 && "http".equalsIgnoreCase(uri.getScheme());
        return standard ? uri.getHost() : uri.getHost() + ":" + port;
    }

    /** The canonical request: method, path, query, headers, their names, and the payload's hash, one per line. */
    static String canonicalRequest(String method, URI uri, TreeMap<String, String> signed, String payloadHash) {
        StringBuilder sb = new StringBuilder(method).append('\n').append(canonicalPath(uri.getRawPath())).append('\n')
                .append(canonicalQuery(uri.getRawQuery())).append('\n');
        signed.forEach((name, value) -> sb.append(name).append(':').append(value.strip().replaceAll(" +", " "))
                .append('\n'));
        return sb.append('\n').append(String.join(";", signed.keySet())).append('\n').append(payloadHash).toString();
    }

    /** The string to sign: the algorithm, the time, the credential scope and the canonical request's hash. */
    static String stringToSign(String stamp, String scope, String canonicalRequest) {
        return ALGORITHM + "\n" + stamp + "\n" + scope + "\n"
                + hex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
    }

    /** {@code HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request")}. */
    private byte[] signingKey(String date) {
        byte[] key = hmac(("AWS4" + credentials.secretAccessKey()).getBytes(StandardCharsets.UTF_8), date);
        key = hmac(key, region);
        key = hmac(key, service);
        return hmac(key, "aws4_request");
    }

    /** Each segment of the path, as it is sent (already encoded), encoded once more. */
    private static String canonicalPath(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return "/";
        }
        StringBuilder sb = new StringBuilder();
        String[] segments = rawPath.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            sb.append(i == 0 ? "" : "/").append(encode(segments[i]));
        }
        return sb.toString();
    }

    /** The query's parameters sorted by name, then value, each encoded. */
    private static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<String[]> params = new ArrayList<>();
        for (String p : rawQuery.split("&")) {
            int eq = p.indexOf('=');
            String name = java.net.URLDecoder.decode(eq < 0 ? p : p.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : java.net.URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8);
            params.add(new String[] {encode(name), encode(value)});
        }
        params.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        StringBuilder sb = new StringBuilder();
        for (String[] p : params) {
            sb.append(sb.length() == 0 ? "" : "&").append(p[0]).append('=').append(p[1]);
        }
        return sb.toString();
    }

    /** RFC 3986 percent-encoding of everything but the unreserved characters, in upper-case hex. */
    static String encode(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                sb.append(c);
            } else {
                sb.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        return sb.toString();
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
