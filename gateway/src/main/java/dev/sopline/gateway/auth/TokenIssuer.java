package dev.sopline.gateway.auth;

import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * Makes tokens: a workspace admin's through {@code POST /workspace/tokens}, and a new workspace's first admin token.
 * A new token never outlives the token that created it (CONTRACT section 8).
 */
@Component
public class TokenIssuer {

    private final TokenRegistry tokens;

    public TokenIssuer(TokenRegistry tokens) {
        this.tokens = tokens;
    }

    /**
     * Stores a new token and returns once this replica authenticates it.
     *
     * @param requestedExpiry when the caller wants it to stop working, or null for never
     * @param creator the token that asks for it; its expiry caps the new one's
     */
    public IssuedToken issue(String workspace, String name, Role role, Instant requestedExpiry, TokenRecord creator, Instant now) {
        String secret = TokenHashing.newSecret();
        TokenRecord record = new TokenRecord(TokenIds.next(), workspace, name, TokenHashing.hashHex(secret), now,
                cappedToCreator(requestedExpiry, creator), null, role);
        tokens.save(record);
        return new IssuedToken(record, secret);
    }

    /** A token cannot hand out more time than it has itself: the creator's expiry caps the new one's. */
    private static Instant cappedToCreator(Instant requested, TokenRecord creator) {
        Instant limit = creator == null ? null : creator.expiresAt();
        if (limit == null) {
            return requested;
        }
        return requested == null || requested.isAfter(limit) ? limit : requested;
    }
}
