package dev.sopline.gateway.security;

import dev.sopline.gateway.auth.TokenRecord;
import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * A request's workspace token: before authentication only the presented secret, after it the stored record and its
 * role as the one authority. The secret is dropped once checked.
 */
public final class TokenAuthentication extends AbstractAuthenticationToken {

    private final transient TokenRecord record;
    private String presented;

    private TokenAuthentication(String presented, TokenRecord record) {
        super(record == null ? List.of() : List.of(new SimpleGrantedAuthority(record.effectiveRole().authority())));
        this.presented = presented;
        this.record = record;
        setAuthenticated(record != null);
    }

    static TokenAuthentication presented(String secret) {
        return new TokenAuthentication(secret, null);
    }

    static TokenAuthentication of(TokenRecord record) {
        return new TokenAuthentication(null, record);
    }

    public TokenRecord record() {
        return record;
    }

    String presentedSecret() {
        return presented;
    }

    @Override
    public Object getCredentials() {
        return presented;
    }

    @Override
    public Object getPrincipal() {
        return record == null ? null : record.id();
    }

    @Override
    public void eraseCredentials() {
        presented = null;
    }
}
