package dev.sopline.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.TriggerAuth;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SignatureVerifierTest {

    private static final byte[] BODY = "{\"event\":\"signup\"}".getBytes(StandardCharsets.UTF_8);
    private static final String SECRET = "shared-secret";

    @Test
    void shouldAcceptHexWithPrefixWhenProviderSignsLikeGitHub() {
        TriggerAuth auth = new TriggerAuth("S", null, null, null, null);
        String header = "sha256=" + HexFormat.of().formatHex(SignatureVerifier.hmac(SECRET, BODY));

        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, header)).isTrue();
        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, header.toUpperCase().replace("SHA256=", "sha256="))).isTrue();
    }

    @Test
    void shouldAcceptBase64WithoutPrefixWhenConfiguredSo() {
        TriggerAuth auth = new TriggerAuth("S", "X-Signature", "", "base64", null);
        String header = Base64.getEncoder().encodeToString(SignatureVerifier.hmac(SECRET, BODY));

        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, header)).isTrue();
    }

    @Test
    void shouldRefuseWrongMissingOrMalformedSignatures() {
        TriggerAuth auth = new TriggerAuth("S", null, null, null, null);
        String good = SignatureVerifier.sign(SECRET, BODY);

        assertThat(SignatureVerifier.verify(auth, "other-secret", BODY, good)).isFalse();
        assertThat(SignatureVerifier.verify(auth, SECRET, "{}".getBytes(StandardCharsets.UTF_8), good)).isFalse();
        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, null)).isFalse();
        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, good.substring("sha256=".length()))).isFalse();
        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, "sha256=not-hex")).isFalse();
        assertThat(SignatureVerifier.verify(auth, SECRET, BODY, "sha256=" + "ab".repeat(16))).isFalse();
    }
}
