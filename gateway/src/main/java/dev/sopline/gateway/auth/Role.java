package dev.sopline.gateway.auth;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a workspace token may do (CONTRACT section 8). Each role includes every role before it: a {@code worker} can do
 * what a {@code viewer} can, and so on up to {@code admin}.
 */
public enum Role {
    /** Every GET and the event streams. */
    VIEWER,
    /** Viewer, plus submitting steps: with the pending feed (a GET, so open to viewers too), what a worker needs. */
    WORKER,
    /** Worker, plus starting, cancelling and registering. The default for new tokens. */
    OPERATOR,
    /** Operator, plus the workspace's tokens and webhooks. */
    ADMIN;

    public static final Role DEFAULT = OPERATOR;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The Spring Security authority of the role, as {@code hasRole} expects it. */
    public String authority() {
        return "ROLE_" + name();
    }

    public boolean includes(Role other) {
        return ordinal() >= other.ordinal();
    }

    public static Optional<Role> fromWire(String name) {
        return Arrays.stream(values()).filter(role -> role.wireName().equals(name)).findFirst();
    }
}
