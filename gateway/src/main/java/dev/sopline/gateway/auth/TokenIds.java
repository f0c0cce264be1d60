package dev.sopline.gateway.auth;

import com.github.f4b6a3.ulid.UlidCreator;

/** Public token ids: {@code tok_} and a ULID, so listings sort by creation. */
public final class TokenIds {

    private TokenIds() {}

    public static String next() {
        return "tok_" + UlidCreator.getMonotonicUlid().toString().toLowerCase(java.util.Locale.ROOT);
    }
}
