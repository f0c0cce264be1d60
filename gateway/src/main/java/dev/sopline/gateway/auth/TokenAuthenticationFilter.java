package dev.sopline.gateway.auth;

import dev.sopline.gateway.web.ErrorResponses;
import dev.sopline.schemas.command.ErrorCodes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code X-SOP-Token} on every {@code /sop/*} and {@code /workspace/*} request, except inbound triggers (signed) and
 * webhook callbacks (the id is the credential). The token's workspace scopes everything the request can see.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class TokenAuthenticationFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-SOP-Token";
    public static final String WORKSPACE_ATTRIBUTE = "sop.workspace";
    public static final String TOKEN_ATTRIBUTE = "sop.token";

    private final TokenRegistry tokens;

    public TokenAuthenticationFilter(TokenRegistry tokens) {
        this.tokens = tokens;
    }

    public static boolean isProtected(String path) {
        boolean api = path.equals("/sop") || path.startsWith("/sop/") || path.startsWith("/workspace/") || path.equals("/workspace");
        return api && !path.startsWith("/sop/triggers/") && !path.startsWith("/sop/webhooks/");
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !isProtected(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(HEADER);
        Optional<TokenRecord> token = presented == null || presented.isBlank() || presented.length() > 512
                ? Optional.empty()
                : tokens.authenticate(presented.trim(), Instant.now());
        if (token.isEmpty()) {
            ErrorResponses.write(response, 401, ErrorCodes.UNAUTHORIZED,
                    "Expected a valid workspace token in the " + HEADER + " header");
            return;
        }
        request.setAttribute(WORKSPACE_ATTRIBUTE, token.get().workspace());
        request.setAttribute(TOKEN_ATTRIBUTE, token.get().id());
        chain.doFilter(request, response);
    }
}
