package dev.sopline.gateway.workspace;

import dev.sopline.gateway.auth.BootstrapToken;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenRecord;

/**
 * Who may create, list and delete workspaces (CONTRACT section 12): any {@code admin} token of workspace
 * {@code default}. The bootstrap token is one; an admin token it creates in {@code default} is one too, so the
 * administrator can hand the duty on and revoke the bootstrap token. Recognised by workspace and role, both stored
 * in the token's record and set only by an admin of {@code default} or at bootstrap: no token of another workspace
 * can become one, since tokens are only ever minted inside their creator's workspace or at a workspace's creation.
 */
public final class PlatformAdministrator {

    private PlatformAdministrator() {}

    public static boolean is(TokenRecord token) {
        return token != null && BootstrapToken.WORKSPACE.equals(token.workspace()) && token.effectiveRole() == Role.ADMIN;
    }
}
