package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"api_key", "apikey", "apiKey", "APIKey", "x-api-key", "OPENAI_API_KEY", "secret",
        "client_secret", "clientSecret", "token", "auth_token", "accessToken", "x-auth-token", "password",
        "db_password", "passwd", "access_key", "aws_secret_access_key", "private_key", "auth", "Authorization",
        "secret_key", "refresh_token", "credentials", "credential", "creds", "db_creds", "aws_credentials",
        "apiCredentials", "CLIENT_SECRET", "dbcredentials", "api_token"})
    void keyLikeNames(String name) {
        assertTrue(KeyNames.isKeyLike(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"author", "max_tokens", "prompt_tokens", "token_type", "api_key_env", "api_key_id",
        "password_hash", "secret_ref", "token_count", "monkey", "keyboard", "x-request-id", "system_fingerprint",
        "content", "model", "x-ratelimit-remaining-tokens", "tokenizer", "", "credentials_file", "credential_type",
        "credit_card", "incredible", "token_sha256", "secret_md5", "password_checksum"})
    void otherNames(String name) {
        assertFalse(KeyNames.isKeyLike(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"csrf", "csrf_token", "csrfToken", "_csrf", "xsrf", "XSRF-TOKEN", "X-CSRF-Token",
        "authenticity_token", "csrfmiddlewaretoken", "anti_csrf_token", "csrftoken", "public_key", "publicKey",
        "publishable_key", "stripe_publishable_key", "public_api_key", "vapid_public_key", "public_token"})
    void namesOfValuesMeantToBeSeenAreNotKeyLike(String name) {
        assertFalse(KeyNames.isKeyLike(name), name);
    }

    @Test
    void splitsWordsAtPunctuationAndCamelCase() {
        assertEquals(List.of("x", "api", "key"), KeyNames.words("x-api-key"));
        assertEquals(List.of("api", "key", "id"), KeyNames.words("APIKeyId"));
        assertEquals(List.of("client", "secret"), KeyNames.words("clientSecret"));
    }

    @Test
    void prefilterNeedsOneOfTheKeywords() {
        char[] a = "x-API-Key".toCharArray();
        assertTrue(KeyNames.mayBeKeyLike(a, 0, a.length));
        char[] b = "content".toCharArray();
        assertFalse(KeyNames.mayBeKeyLike(b, 0, b.length));
        char[] c = "dbCreds".toCharArray();
        assertTrue(KeyNames.mayBeKeyLike(c, 0, c.length));
    }
}
