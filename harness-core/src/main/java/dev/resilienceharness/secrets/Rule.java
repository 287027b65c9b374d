package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The secret scanner's rules (docs secrets.md). Each id is stable: it appears in findings, reports, SARIF,
 * baselines and {@code [REDACTED:<rule-id>:<hash8>]} placeholders, so it never changes once released.
 *
 * <table>
 *   <caption>Rules</caption>
 *   <tr><th>id</th><th>what it matches</th><th>example, masked</th></tr>
 *   <tr><td>{@code openai-key}</td><td>{@code sk-proj-}, {@code sk-svcacct-}, {@code sk-admin-} or legacy
 *       {@code sk-service-account-} followed by at least 20 key characters, or legacy {@code sk-} followed by at
 *       least 32 letters and digits; never {@code sk-ant-}</td><td>{@code sk-p****}</td></tr>
 *   <tr><td>{@code anthropic-key}</td><td>{@code sk-ant-} followed by at least 32 key characters</td>
 *       <td>{@code sk-a****}</td></tr>
 *   <tr><td>{@code google-api-key}</td><td>{@code AIza} followed by exactly 35 key characters of more than one
 *       class</td>
 *       <td>{@code AIza****}</td></tr>
 *   <tr><td>{@code huggingface-token}</td><td>{@code hf_} followed by at least 30 letters and digits</td>
 *       <td>{@code hf_F****}</td></tr>
 *   <tr><td>{@code groq-key}</td><td>{@code gsk_} followed by at least 40 letters and digits</td>
 *       <td>{@code gsk_****}</td></tr>
 *   <tr><td>{@code aws-access-key-id}</td><td>{@code AKIA}, {@code ASIA}, {@code ABIA} or {@code ACCA}
 *       followed by exactly 16 upper-case letters and digits</td><td>{@code AKIA****}</td></tr>
 *   <tr><td>{@code github-token}</td><td>{@code ghp_}, {@code gho_}, {@code ghu_}, {@code ghs_},
 *       {@code ghr_} followed by at least 36 letters and digits, {@code github_pat_} followed by at least
 *       22 word characters, or an installation token {@code ghs_<app id>_<JWT>}</td><td>{@code ghp_****}</td></tr>
 *   <tr><td>{@code slack-token}</td><td>{@code xoxb-} and {@code xoxp-} followed by a workspace number of at
 *       least eight digits, a dash and at least 18 more characters, or by two numbers of at least ten digits
 *       joined by a dash; {@code xoxa-}, {@code xoxo-},
 *       {@code xoxs-}, {@code xoxr-} followed by at least 10 characters with a digit</td>
 *       <td>{@code xoxb****}</td></tr>
 *   <tr><td>{@code stripe-key}</td><td>{@code sk_live_}, {@code sk_test_}, {@code rk_live_},
 *       {@code rk_test_} followed by at least 16 letters and digits</td><td>{@code sk_t****}</td></tr>
 *   <tr><td>{@code jwt}</td><td>three base64url parts joined by dots, the first two starting {@code eyJ}
 *       (a JSON object), the signature at least 16 characters, or empty for an unsigned ({@code alg: none})
 *       token that ends at its second dot</td><td>{@code eyJh****}</td></tr>
 *   <tr><td>{@code private-key}</td><td>a PEM block from {@code -----BEGIN ... PRIVATE KEY-----} to its
 *       {@code -----END ...-----} line (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP, PKCS#8), with base64 key
 *       material between the lines</td>
 *       <td>{@code ----****}</td></tr>
 *   <tr><td>{@code credential-header}</td><td>the value of an {@code Authorization} (a bearer token or AWS's
 *       SigV4 signature), {@code Proxy-Authorization}, {@code api-key}, {@code x-api-key}, {@code x-goog-api-key},
 *       {@code X-Amz-Security-Token}, {@code Cookie} or {@code Set-Cookie} entry of any {@code headers} object,
 *       whatever it is</td>
 *       <td>{@code Bear****}</td></tr>
 *   <tr><td>{@code high-entropy-secret}</td><td>a random-looking value of 16 to 1024 characters under a
 *       key-like name ({@code api_key}, {@code secret}, {@code token}, {@code password}, {@code auth},
 *       {@code credentials}, ...) as a JSON field, an assignment of a config file or a program
 *       ({@code name=value}, {@code name: value}, {@code NAME = "value"}, {@code name := value},
 *       {@code name => value}, {@code <name>value</name>}, {@code setProperty("NAME", "value")}), or the
 *       password of {@code Basic} credentials; there a UUID, a hex digest or {@code <digits>:<random>} counts
 *       as random too</td>
 *       <td>{@code wJal****}</td></tr>
 *   <tr><td>{@code email-address}</td><td>an e-mail address with a dotted domain and an alphabetic
 *       top-level domain</td><td>{@code jane****}</td></tr>
 *   <tr><td>{@code card-number}</td><td>13 to 19 digits, plain or in 4-4-4-4 / 4-6-5 / 4-6-4 / 4-4-4-4-3 groups
 *       separated by spaces or dashes, with a card network's prefix and length, passing the Luhn check</td>
 *       <td>{@code 4111****}</td></tr>
 * </table>
 *
 * <p>Each rule also finds its secret base64- or hex-encoded, up to two encodings deep (see
 * {@link StringInspector}). A team's own rules ({@link GitleaksRules}) have ids of their own, outside this enum.
 *
 * <p>No rule reports a {@linkplain StandIns stand-in}: a provider's documented example key, an obvious
 * placeholder or a key shown masked. Names of values meant to be seen ({@code csrf_token},
 * {@code authenticity_token}, {@code public_key}, {@code publishable_key}) are not key-like.
 */
@API(status = INTERNAL, since = "0.1.0")
public enum Rule {
    OPENAI_KEY("openai-key", "OpenAI API key",
            "An OpenAI API key (sk-, sk-proj-, sk-svcacct-, sk-admin-, sk-service-account-)."),
    ANTHROPIC_KEY("anthropic-key", "Anthropic API key",
            "An Anthropic API key (sk-ant-)."),
    GOOGLE_API_KEY("google-api-key", "Google API key",
            "A Google API key (AIza followed by 35 characters), as used by Gemini."),
    HUGGINGFACE_TOKEN("huggingface-token", "Hugging Face token",
            "A Hugging Face access token (hf_)."),
    GROQ_KEY("groq-key", "Groq API key",
            "A Groq API key (gsk_)."),
    AWS_ACCESS_KEY_ID("aws-access-key-id", "AWS access key id",
            "An AWS access key id (AKIA, ASIA, ABIA, ACCA); its secret access key is usually nearby."),
    GITHUB_TOKEN("github-token", "GitHub token",
            "A GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)."),
    SLACK_TOKEN("slack-token", "Slack token",
            "A Slack token (xoxb-, xoxp-, xoxa-, xoxo-, xoxs-, xoxr-)."),
    STRIPE_KEY("stripe-key", "Stripe secret key",
            "A Stripe secret or restricted key (sk_live_, sk_test_, rk_live_, rk_test_)."),
    JWT("jwt", "JSON Web Token",
            "A JSON Web Token: three base64url parts joined by dots; it often grants access until it expires."),
    PRIVATE_KEY("private-key", "Private key",
            "A PEM-encoded private key block."),
    CREDENTIAL_HEADER("credential-header", "Credential header",
            "An Authorization (a bearer token or AWS's SigV4 signature), Proxy-Authorization, api-key, x-api-key, "
                    + "x-goog-api-key, X-Amz-Security-Token, Cookie or Set-Cookie header; recording drops these "
                    + "headers entirely."),
    HIGH_ENTROPY_SECRET("high-entropy-secret", "High-entropy secret",
            "A random-looking value under a key-like name (api_key, secret, token, password, auth, ...)."),
    EMAIL_ADDRESS("email-address", "E-mail address",
            "An e-mail address: personal data that should not be published."),
    CARD_NUMBER("card-number", "Payment card number",
            "A payment card number (network prefix and length, passes the Luhn check): personal data.");

    /** What to do about any finding; shared by every rule's help text. */
    static final String REMEDY = "Re-record the cassette with `mvn resilience:record` (it redacts secrets before "
            + "writing), or replace the value by hand; rotate the credential if it was ever committed. If the "
            + "value is not a secret, add its finding fingerprint or a regex to redaction.allow, or accept it "
            + "in the baseline file.";

    private final String id;
    private final String title;
    private final String description;

    Rule(String id, String title, String description) {
        this.id = id;
        this.title = title;
        this.description = description;
    }

    /** The stable id, e.g. {@code openai-key}. */
    public String id() {
        return id;
    }

    /** A short name, e.g. "OpenAI API key". */
    public String title() {
        return title;
    }

    /** One sentence saying what the rule matches. */
    public String description() {
        return description;
    }

    /** What the rule matches and what to do about a finding. */
    public String help() {
        return description + " " + REMEDY;
    }

    /** The rule with this id, or {@code null} when there is none. */
    public static Rule byId(String id) {
        for (Rule r : values()) {
            if (r.id.equals(id)) {
                return r;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return id;
    }
}
