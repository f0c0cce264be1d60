package dev.sopline.engine.api.secret;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import javax.crypto.Mac;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The signature the platform's own writers put on every command they write to the engine's command topic: an
 * HMAC-SHA256 of the record's value under a key derived from the engine secret, in the header {@value #HEADER}.
 *
 * <p>Teams' SDK workers write their results straight to the command topic (one produce-and-fetch hop less than
 * through {@code sop.step-results} and the relay), so writing to that topic no longer means being the platform. The
 * engine takes a record without this signature only as a worker's result, checked as one from
 * {@code sop.step-results} is; a start, cancel, registration or anything else unsigned it refuses. The key is
 * derived, so the secret itself never travels and no other key of the engine's can be computed from it.
 */
public final class CommandSignature {

    public static final String HEADER = "sop-command-signature";
    private static final String PURPOSE = "sop-command-signature";

    /** A Mac is not thread-safe, and setting one up costs more than the hash of a command: one per thread. */
    private final ThreadLocal<Mac> macs;

    private CommandSignature(byte[] derivedKey) {
        this.macs = ThreadLocal.withInitial(() -> HmacSha256.under(derivedKey));
    }

    /** The signature of the engines sharing {@code engineSecret}. */
    public static CommandSignature of(byte[] engineSecret) {
        return new CommandSignature(HmacSha256.under(engineSecret).doFinal(PURPOSE.getBytes(StandardCharsets.UTF_8)));
    }

    /** Puts the signature of {@code value} in {@code headers}, in place of any the record carried. */
    public void sign(Headers headers, byte[] value) {
        headers.remove(HEADER);
        headers.add(HEADER, hash(value));
    }

    /** Whether {@code headers} carry exactly one signature and it is that of {@code value}, compared in constant time. */
    public boolean signed(Headers headers, byte[] value) {
        if (headers == null || value == null) {
            return false;
        }
        Header only = null;
        for (Header header : headers.headers(HEADER)) {
            if (only != null) {
                return false;
            }
            only = header;
        }
        return only != null && only.value() != null && MessageDigest.isEqual(hash(value), only.value());
    }

    private byte[] hash(byte[] value) {
        return macs.get().doFinal(value);
    }

    @Override
    public String toString() {
        return "CommandSignature[hidden]";
    }
}
