package dev.resilienceharness.live;

import dev.resilienceharness.http.AwsSigV4;
import java.net.URI;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a Bedrock request is authorized when it is recorded, chosen once from the yaml and the environment: with
 * {@code provider.api_key_env} set, its variable is an Amazon Bedrock API key sent as a Bearer token (as the AWS SDK
 * sends {@code AWS_BEARER_TOKEN_BEDROCK}); without it, the standard AWS credentials sign with SigV4 for the region of
 * the base URL's host, or {@code AWS_REGION}; with neither, a sentence naming both ways, before anything is sent.
 *
 * @param signer  the SigV4 signer, or {@code null} (a Bearer key, or nothing to sign with)
 * @param refusal why a Bedrock request is not sent, or {@code null} when it can be
 */
record BedrockAuth(AwsSigV4 signer, String refusal) {

    /** Bedrock Runtime's signing name. */
    static final String SERVICE = "bedrock";

    /** {@code bedrock-runtime.<region>.amazonaws.com} (and its FIPS twin): the region is in the host. */
    private static final Pattern REGIONAL_HOST = Pattern.compile(
            "^bedrock-runtime(?:-fips)?\\.([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?$");

    /** For a provider whose {@code api_key_env} names {@code key} (or none, {@code null}). */
    static BedrockAuth of(URI baseUrl, String key, Function<String, String> env) {
        if (key != null) {
            return new BedrockAuth(null, null);
        }
        String id = value(env, "AWS_ACCESS_KEY_ID");
        String secret = value(env, "AWS_SECRET_ACCESS_KEY");
        if (id == null || secret == null) {
            return new BedrockAuth(null, LiveMessages.BEDROCK_NO_CREDENTIALS);
        }
        String region = region(baseUrl, env);
        if (region == null) {
            return new BedrockAuth(null, LiveMessages.BEDROCK_NO_REGION);
        }
        AwsSigV4.Credentials credentials = new AwsSigV4.Credentials(id, secret, value(env, "AWS_SESSION_TOKEN"));
        return new BedrockAuth(AwsSigV4.of(credentials, region, SERVICE), null);
    }

    /** The region requests are signed for: the base URL's host names it, else {@code AWS_REGION}. */
    static String region(URI baseUrl, Function<String, String> env) {
        String host = baseUrl.getHost();
        if (host != null) {
            Matcher m = REGIONAL_HOST.matcher(host.toLowerCase(java.util.Locale.ROOT));
            if (m.matches()) {
                return m.group(1);
            }
        }
        return value(env, "AWS_REGION");
    }

    private static String value(Function<String, String> env, String name) {
        String v = env.apply(name);
        return v == null || v.isBlank() ? null : v.strip();
    }
}
