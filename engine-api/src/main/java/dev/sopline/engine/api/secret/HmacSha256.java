package dev.sopline.engine.api.secret;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256, the one keyed hash of the engine's keys, set up under a key. */
public final class HmacSha256 {

    public static final String ALGORITHM = "HmacSHA256";

    private HmacSha256() {}

    /** A Mac ready to hash under {@code key}; not thread-safe, so one per thread where it is reused. */
    public static Mac under(byte[] key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Expected the JVM to provide " + ALGORITHM, e);
        }
    }
}
