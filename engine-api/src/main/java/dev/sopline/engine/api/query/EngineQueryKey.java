package dev.sopline.engine.api.query;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a caller of an engine replica's query endpoints shows in {@value #HEADER}: derived from the engine secret
 * ({@code SOP_ENGINE_SECRET}, or the one the engines keep in their internal topic), so only the platform's own
 * processes have it, never a team's worker that merely shares their network. The endpoints take any workspace as a
 * parameter and answer without a token, so without it anyone who reached the port read every workspace's instances.
 */
public final class EngineQueryKey {

    public static final String HEADER = "X-SOP-Engine-Key";
    private static final String PURPOSE = "sop-engine-query";

    private final String value;

    private EngineQueryKey(String value) {
        this.value = value;
    }

    /** The key for engines sharing {@code engineSecret}: an HMAC of a fixed text, so the secret itself never travels. */
    public static EngineQueryKey of(byte[] engineSecret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(engineSecret, "HmacSHA256"));
            return new EngineQueryKey(HexFormat.of().formatHex(mac.doFinal(PURPOSE.getBytes(StandardCharsets.UTF_8))));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("Expected the JVM to provide HmacSHA256", e);
        }
    }

    public String value() {
        return value;
    }

    /** Whether {@code presented} is this key, compared in constant time; null is not. */
    public boolean isShownBy(String presented) {
        return presented != null
                && MessageDigest.isEqual(value.getBytes(StandardCharsets.US_ASCII), presented.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "EngineQueryKey[hidden]";
    }
}
