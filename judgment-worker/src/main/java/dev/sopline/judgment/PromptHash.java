package dev.sopline.judgment;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The SHA-256 of exactly what a model read, recorded with every agent decision: it names the prompt without copying
 * the case's data into the decision a second time.
 */
final class PromptHash {

    private PromptHash() {}

    /** The parts in order, each ended by a newline, so that moving text from one part to the next changes the hash. */
    static String of(List<String> parts) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides SHA-256", e);
        }
        for (String part : parts) {
            sha256.update(part.getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) '\n');
        }
        return HexFormat.of().formatHex(sha256.digest());
    }
}
