package dev.sopline.worker;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The {@code Idempotency-Key} of a step's submit (CONTRACT section 3): {@code <instance>/<step>/<attempt>/<body hash>}.
 * A submit carries no attempt number, so a repeat of one that the gateway took, but whose answer was lost, would
 * otherwise resolve the step's next attempt: an error sent twice would fail two attempts. With the key the repeat
 * gets the first answer and changes nothing. The hash of the body is part of the key because the gateway refuses the
 * same key with another body ({@code idempotency_key_reused}) for 24 hours, and the same attempt can rightly be
 * submitted with another body: the error that replaces outputs the gateway refused, or the outputs of the handler run
 * again after a restart.
 */
final class SubmitKey {

    /** What the gateway accepts: 1 to 255 printable ASCII characters. */
    private static final Pattern ACCEPTED = Pattern.compile("[\\x21-\\x7E]{1,255}");

    private SubmitKey() {}

    static String of(String instanceId, String stepId, int attempt, byte[] body) {
        String key = instanceId + "/" + stepId + "/" + attempt + "/" + sha256(body).substring(0, 16);
        // Step ids are the process file's to choose: one the header cannot carry is replaced by its hash.
        return ACCEPTED.matcher(key).matches() ? key : sha256(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
