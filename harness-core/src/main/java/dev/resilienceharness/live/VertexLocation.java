package dev.resilienceharness.live;

import java.net.URI;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a Messages request made through anthropic-java's Vertex AI backend is sent again, chosen once from the yaml
 * and the environment: below a base URL that ends with {@code projects/{p}/locations/{l}}, else below
 * {@code projects/{ANTHROPIC_VERTEX_PROJECT_ID}/locations/{region}}, the region being the base URL host's
 * ({@code {region}-aiplatform.googleapis.com}) or {@code CLOUD_ML_REGION}, as the backend reads them; with neither, a
 * sentence saying what to set, before anything is sent.
 *
 * @param prefix  the path below the base URL, {@code projects/{p}/locations/{l}/} (empty when the base URL has it),
 *                or {@code null}
 * @param refusal why such a request is not sent, or {@code null} when it can be
 */
record VertexLocation(String prefix, String refusal) {

    private static final Pattern REGIONAL_HOST = Pattern.compile("^([a-z0-9-]+)-aiplatform\\.googleapis\\.com$");

    /** For a provider whose base URL is {@code base}. */
    static VertexLocation of(URI base, Function<String, String> env) {
        if (base.getPath() != null && base.getPath().matches(".*/projects/[^/]+/locations/[^/]+/?$")) {
            return new VertexLocation("", null);
        }
        String project = value(env, "ANTHROPIC_VERTEX_PROJECT_ID");
        String region = null;
        if (base.getHost() != null) {
            Matcher m = REGIONAL_HOST.matcher(base.getHost().toLowerCase(java.util.Locale.ROOT));
            if (m.matches()) {
                region = m.group(1);
            }
        }
        if (region == null) {
            region = value(env, "CLOUD_ML_REGION");
        }
        if (project == null || region == null) {
            return new VertexLocation(null, LiveMessages.VERTEX_NO_PROJECT);
        }
        return new VertexLocation("projects/" + project + "/locations/" + region + "/", null);
    }

    private static String value(Function<String, String> env, String name) {
        String v = env.apply(name);
        return v == null || v.isBlank() ? null : v.strip();
    }
}
