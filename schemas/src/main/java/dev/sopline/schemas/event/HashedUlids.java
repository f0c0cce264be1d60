package dev.sopline.schemas.event;

import com.github.f4b6a3.ulid.Ulid;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** ULIDs whose random part is the start of a SHA-256 of a text: the same time and text always give the same id. */
public final class HashedUlids {

    // MessageDigest.getInstance searches the security providers on every call; each thread reuses one digest.
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected the JVM to provide SHA-256", e);
        }
    });

    private HashedUlids() {}

    public static String of(long epochMillis, String text) {
        byte[] hash = SHA_256.get().digest(text.getBytes(StandardCharsets.UTF_8));
        return new Ulid(epochMillis, Arrays.copyOf(hash, 10)).toString();
    }
}
