package dev.sopline.engine.api.query;

/**
 * A read and where it came from: {@code stale} when the owner of the data could not be reached and a standby copy
 * answered, which may be a little behind the owner (the last commits of the owner may be missing).
 *
 * @param value what was read
 * @param stale whether a standby answered instead of the owner
 */
public record Answer<T>(T value, boolean stale) {

    /** The header a stale answer carries over HTTP, on the engines' query endpoints and on the gateway's API. */
    public static final String STALE_HEADER = "X-SOP-Stale";

    public static <T> Answer<T> fresh(T value) {
        return new Answer<>(value, false);
    }
}
