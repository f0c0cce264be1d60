package dev.sopline.gateway.auth;

import java.time.Instant;

/**
 * A workspace token as stored: never the secret, only its SHA-256.
 *
 * @param id public identifier, used to list and revoke
 * @param workspace the workspace the token acts in
 * @param name what the owner called it
 * @param hash hex SHA-256 of the token
 * @param createdAt when it was created
 * @param expiresAt when it stops working, or null
 * @param revokedAt when it was revoked, or null
 * @param role what it may do; null on records written before roles existed (see {@link #effectiveRole()})
 */
public record TokenRecord(String id, String workspace, String name, String hash, Instant createdAt, Instant expiresAt, Instant revokedAt,
                          Role role) {

    public boolean isUsableAt(Instant now) {
        return revokedAt == null && (expiresAt == null || now.isBefore(expiresAt));
    }

    /** When it stopped working, by revocation or expiry, or null while it works or could still. */
    public Instant endedAt(Instant now) {
        if (revokedAt != null) {
            return expiresAt != null && expiresAt.isBefore(revokedAt) ? expiresAt : revokedAt;
        }
        return expiresAt != null && !now.isBefore(expiresAt) ? expiresAt : null;
    }

    public TokenRecord revoked(Instant when) {
        return new TokenRecord(id, workspace, name, hash, createdAt, expiresAt, when, role);
    }

    /** The role; a record from before roles is read as the bootstrap token's {@code admin}, or the default. */
    public Role effectiveRole() {
        if (role != null) {
            return role;
        }
        return BootstrapToken.WORKSPACE.equals(workspace) && BootstrapToken.NAME.equals(name) ? Role.ADMIN : Role.DEFAULT;
    }
}
