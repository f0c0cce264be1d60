package dev.sopline.gateway.security;

import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.gateway.workspace.WorkspaceRegistry;
import java.time.Instant;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

/**
 * Checks a presented workspace token against the stored hashes (constant time, in {@link TokenRegistry}). A token of
 * a deleted workspace is refused even before its own revocation is written: the workspace's deletion mark comes
 * first, so a deletion that stopped half-way still shuts every token of the workspace out.
 */
@Component
public class TokenAuthenticationProvider implements AuthenticationProvider {

    /** Longer than any token this platform issues; longer ones are not even hashed. */
    private static final int MAX_TOKEN_LENGTH = 512;

    private final TokenRegistry tokens;
    private final WorkspaceRegistry workspaces;

    public TokenAuthenticationProvider(TokenRegistry tokens, WorkspaceRegistry workspaces) {
        this.tokens = tokens;
        this.workspaces = workspaces;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String presented = ((TokenAuthentication) authentication).presentedSecret();
        if (presented == null || presented.isBlank() || presented.length() > MAX_TOKEN_LENGTH) {
            throw new BadCredentialsException("No usable token");
        }
        return tokens.authenticate(presented.trim(), Instant.now())
                .filter(record -> !workspaces.isDeleted(record.workspace()))
                .map(TokenAuthentication::of)
                .orElseThrow(() -> new BadCredentialsException("Unknown, revoked or expired token"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return TokenAuthentication.class.isAssignableFrom(authentication);
    }
}
