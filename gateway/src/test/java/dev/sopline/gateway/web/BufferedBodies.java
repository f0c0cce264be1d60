package dev.sopline.gateway.web;

/** What {@link RequestBodyFilter} holds of the bodies it reads, for tests outside this package. */
public final class BufferedBodies {

    private BufferedBodies() {}

    /** The bytes of request bodies counted in the filter's buffer budget now. */
    public static long held(RequestBodyFilter filter) {
        return filter.bufferedBytes();
    }
}
