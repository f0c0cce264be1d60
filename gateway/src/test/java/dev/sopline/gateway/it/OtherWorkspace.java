package dev.sopline.gateway.it;

import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenHashing;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.auth.TokenRegistry;
import java.time.Instant;

/**
 * A token of workspace {@code acme}. The API creates tokens in the caller's workspace only, so a second workspace is
 * made the way an operator's provisioning would: a record in the token registry.
 */
final class OtherWorkspace {

    private static String token;

    private OtherWorkspace() {}

    static synchronized String token(GatewayTestBase test) {
        if (token == null) {
            String secret = TokenHashing.newSecret();
            TokenRegistry registry = test.tokens;
            registry.save(new TokenRecord("tok_acme", "acme", "acme", TokenHashing.hashHex(secret), Instant.now(), null, null, Role.ADMIN));
            token = secret;
        }
        return token;
    }
}
