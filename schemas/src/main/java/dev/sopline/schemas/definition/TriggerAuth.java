package dev.sopline.schemas.definition;

/**
 * Signature settings of a webhook trigger.
 *
 * @param secretEnv name of the environment variable holding the HMAC-SHA256 shared secret
 * @param header header carrying the signature, {@code X-Hub-Signature-256} by default
 * @param prefix text before the signature in the header, {@code sha256=} by default
 * @param encoding {@code hex} (default) or {@code base64}
 * @param deliveryHeader optional provider delivery-id header used to drop redelivered calls
 * @param dedupeBody whether a body already taken in the last 24 hours starts nothing new (null: no); only the body is
 *                   signed, so without it a captured call can be sent again, under a fresh delivery id, and start again
 */
public record TriggerAuth(String secretEnv, String header, String prefix, String encoding, String deliveryHeader, Boolean dedupeBody) {

    public TriggerAuth(String secretEnv, String header, String prefix, String encoding, String deliveryHeader) {
        this(secretEnv, header, prefix, encoding, deliveryHeader, null);
    }

    public boolean dedupesBody() {
        return Boolean.TRUE.equals(dedupeBody);
    }

    public static final String DEFAULT_HEADER = "X-Hub-Signature-256";
    public static final String DEFAULT_PREFIX = "sha256=";
    public static final String HEX = "hex";
    public static final String BASE64 = "base64";

    public TriggerAuth {
        header = header == null ? DEFAULT_HEADER : header;
        prefix = prefix == null ? DEFAULT_PREFIX : prefix;
        encoding = encoding == null ? HEX : encoding;
    }
}
