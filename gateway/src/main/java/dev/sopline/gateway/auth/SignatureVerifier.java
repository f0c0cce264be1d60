package dev.sopline.gateway.auth;

import dev.sopline.schemas.definition.TriggerAuth;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 signatures of inbound triggers and outbound webhooks, with the header prefix and encoding the
 * provider uses. The comparison is constant time ({@link MessageDigest#isEqual}).
 */
public final class SignatureVerifier {

    private SignatureVerifier() {}

    public static byte[] hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
        }
    }

    /** Whether {@code header} carries the signature of {@code body}; false when absent or malformed. */
    public static boolean verify(TriggerAuth auth, String secret, byte[] body, String header) {
        if (header == null || !header.startsWith(auth.prefix())) {
            return false;
        }
        String encoded = header.substring(auth.prefix().length()).trim();
        byte[] presented;
        try {
            presented = TriggerAuth.BASE64.equals(auth.encoding()) ? Base64.getDecoder().decode(encoded) : HexFormat.of().parseHex(encoded.toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(hmac(secret, body), presented);
    }

    /** {@code sha256=<hex>} of the body, as outbound deliveries are signed. */
    public static String sign(String secret, byte[] body) {
        return "sha256=" + HexFormat.of().formatHex(hmac(secret, body));
    }
}
