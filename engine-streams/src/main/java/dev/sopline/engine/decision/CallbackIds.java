package dev.sopline.engine.decision;

import com.github.f4b6a3.ulid.Ulid;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Callback ids of webhook steps. The id is the only credential its third party holds, so it must not be guessable;
 * and a replay of the log after a crash must mint the same id again, so it cannot be random. It is a keyed
 * HMAC-SHA256 of (workspace, instance, step, attempt) under the engine's secret, cut to 128 bits and written as a
 * ULID (26 Crockford base32 characters): guessing one is as hard as guessing a ULID's random part, without the key.
 */
public final class CallbackIds {

    private static final String ALGORITHM = "HmacSHA256";
    private static final int ULID_BYTES = 16;

    private final SecretKeySpec key;

    public CallbackIds(byte[] secret) {
        if (secret == null || secret.length < ULID_BYTES) {
            throw new IllegalArgumentException("Expected an engine secret of at least 16 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    }

    public String of(String workspace, String instanceId, String stepId, int attempt) {
        try {
            // A Mac is not thread-safe and one instance serves every stream thread: a new one per id costs microseconds.
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            // Length-prefixed fields, so no two different tuples hash the same bytes.
            for (String field : new String[] {workspace, instanceId, stepId, Integer.toString(attempt)}) {
                byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
                mac.update(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16), (byte) (bytes.length >>> 8), (byte) bytes.length});
                mac.update(bytes);
            }
            return Ulid.from(Arrays.copyOf(mac.doFinal(), ULID_BYTES)).toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Expected the JVM to provide " + ALGORITHM, e);
        }
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "CallbackIds[key hidden]";
    }
}
