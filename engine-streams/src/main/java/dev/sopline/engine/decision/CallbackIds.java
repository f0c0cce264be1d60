package dev.sopline.engine.decision;

import com.github.f4b6a3.ulid.Ulid;
import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.secret.HmacSha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
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

    private static final int ULID_BYTES = 16;

    /** Put before a result key's fields, so no result key is ever a callback id or the other way round. */
    private static final String RESULT_KEY = "result-key";

    private final SecretKeySpec key;
    private final boolean resultKeysRequired;
    /**
     * One initialised Mac per thread: a Mac is not thread-safe, and looking one up and initialising it for every id
     * (provider lookup, key setup) cost more than the hash itself, once per step handed out and per result checked.
     * {@code doFinal} leaves it ready for the next id under the same key.
     */
    private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

    public CallbackIds(byte[] secret) {
        this(secret, false);
    }

    private CallbackIds(byte[] secret, boolean resultKeysRequired) {
        if (secret == null || secret.length < ULID_BYTES) {
            throw new IllegalArgumentException("Expected an engine secret of at least 16 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), HmacSha256.ALGORITHM);
        this.resultKeysRequired = resultKeysRequired;
    }

    /** The same ids, with results over Kafka taken only when they carry their attempt's key ({@code SOP_RESULT_KEYS=required}). */
    public CallbackIds requiringResultKeys(boolean required) {
        return new CallbackIds(key.getEncoded(), required);
    }

    /** The signature of the platform's commands, under the same engine secret ({@link CommandSignature}). */
    public CommandSignature commandSignature() {
        return CommandSignature.of(key.getEncoded());
    }

    public String of(String workspace, String instanceId, String stepId, int attempt) {
        return hash(new String[] {workspace, instanceId, stepId, Integer.toString(attempt)});
    }

    /**
     * The key of one step attempt, handed to its worker in the step-ready event and carried back in its result: a
     * keyed HMAC as the callback id is, so only the worker that was handed the step can answer it, not any writer of
     * {@code sop.step-results} who knows the instance's id.
     */
    public String resultKey(String workspace, String instanceId, String stepId, int attempt) {
        return hash(new String[] {RESULT_KEY, workspace, instanceId, stepId, Integer.toString(attempt)});
    }

    /**
     * Whether a result from {@code sop.step-results} may answer its attempt: one that carries a key must carry that
     * attempt's; one without is taken unless keys are required. Compared in constant time.
     */
    public boolean acceptsResultKey(String workspace, String instanceId, String stepId, int attempt, String presented) {
        if (presented == null) {
            return !resultKeysRequired;
        }
        byte[] expected = resultKey(workspace, instanceId, stepId, attempt).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8));
    }

    private String hash(String[] fields) {
        Mac mac = macs.get();
        mac.reset(); // already reset by the last doFinal, unless that hash failed half-way
        // Length-prefixed fields, so no two different tuples hash the same bytes.
        for (String field : fields) {
            byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
            mac.update(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16), (byte) (bytes.length >>> 8), (byte) bytes.length});
            mac.update(bytes);
        }
        return Ulid.from(Arrays.copyOf(mac.doFinal(), ULID_BYTES)).toString();
    }

    private Mac newMac() {
        return HmacSha256.under(key.getEncoded());
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "CallbackIds[key hidden]";
    }
}
