package dev.sopline.gateway.web;

import jakarta.servlet.ServletInputStream;
import java.io.IOException;

/**
 * The part of a request body that has already arrived: read from the container's buffer without waiting for the
 * network. {@link ServletInputStream#available()} on a blocking stream counts only bytes the container holds
 * already, so every read here returns at once.
 */
record ArrivedBytes(byte[] bytes, int length, boolean complete) {

    static final ArrivedBytes NONE = new ArrivedBytes(new byte[0], 0, false);

    /**
     * Bodies up to this size are tried without going async. Larger ones are read as they arrive, so a client that
     * declares a large body and sends little of it does not make the gateway hold the declared size.
     */
    static final int MAX_BYTES = 64 * 1024;

    static ArrivedBytes read(ServletInputStream input, int declared) throws IOException {
        byte[] bytes = new byte[declared];
        int length = 0;
        while (length < declared && input.available() > 0) {
            int read = input.read(bytes, length, declared - length);
            if (read < 0) {
                break;
            }
            length += read;
        }
        return new ArrivedBytes(bytes, length, length == declared);
    }
}
