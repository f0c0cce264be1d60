package dev.sopline.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Token secrets: 32 random bytes from {@link SecureRandom}, stored as SHA-256 only. A plain hash (no salt or
 * stretching) is enough because the secret is random and long, not a password someone chose.
 */
public final class TokenHashing {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PREFIX = "sop_";

    private TokenHashing() {}

    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    public static String hashHex(String token) {
        return HexFormat.of().formatHex(sha256(token));
    }

    /** Constant-time comparison of a presented token's hash with a stored one. */
    public static boolean matches(String presented, String storedHashHex) {
        return matchesHash(sha256(presented), storedHashHex);
    }

    /** Constant-time comparison of a hash already computed (with {@link #sha256}) with a stored one. */
    public static boolean matchesHash(byte[] presentedHash, String storedHashHex) {
        return MessageDigest.isEqual(presentedHash, HexFormat.of().parseHex(storedHashHex));
    }
}
