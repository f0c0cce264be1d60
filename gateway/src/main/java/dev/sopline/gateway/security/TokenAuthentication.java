package dev.sopline.gateway.security;

import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenRecord;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * A request's workspace token: before authentication only the presented secret, after it the stored record, with its
 * role and every role that role includes as authorities. The secret is dropped once checked.
 *
 * <p>The included roles are granted here, once per role, rather than through Spring Security's role hierarchy: that
 * one works them out again on every authorisation check, and renders a debug message each time whatever the log
 * level (commons-logging 1.3's SLF4J adapter formats every message before SLF4J checks the level).
 */
public final class TokenAuthentication extends AbstractAuthenticationToken {

    private static final Map<Role, List<GrantedAuthority>> AUTHORITIES = authoritiesByRole();

    private final transient TokenRecord record;
    private String presented;

    private TokenAuthentication(String presented, TokenRecord record) {
        super(record == null ? List.of() : AUTHORITIES.get(record.effectiveRole()));
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

    private static Map<Role, List<GrantedAuthority>> authoritiesByRole() {
        Map<Role, List<GrantedAuthority>> byRole = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            byRole.put(role, Arrays.stream(Role.values()).filter(role::includes)
                    .<GrantedAuthority>map(included -> new SimpleGrantedAuthority(included.authority())).toList());
        }
        return byRole;
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
