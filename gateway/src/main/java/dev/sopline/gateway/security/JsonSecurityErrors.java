package dev.sopline.gateway.security;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.web.ConnectionsPerClient;
import dev.sopline.gateway.web.ErrorResponses;
import dev.sopline.gateway.web.HttpErrorCodes;
import dev.sopline.gateway.web.RateBuckets;
import dev.sopline.schemas.command.ErrorCodes;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * The security chain's refusals, as the contract's JSON errors: 400 {@code invalid_request} for a path the firewall
 * refuses, 401 {@code unauthorized} without a usable token, 403 {@code forbidden} outside the token's role.
 *
 * <p>Failed authentications are also counted per client address (CONTRACT section 8: 20/s, burst 50): past that the
 * answer is 429 {@code rate_limited}, so guessing tokens costs time. A request with a valid token never takes from
 * this budget.
 */
@Component
public class JsonSecurityErrors implements AuthenticationEntryPoint, AuthenticationFailureHandler, AccessDeniedHandler,
        RequestRejectedHandler {

    static final int FAILURES_PER_SECOND = 20;
    static final int FAILURES_BURST = 50;
    private static final int MAX_TRACKED_ADDRESSES = 100_000;

    private final RateBuckets failures = new RateBuckets(FAILURES_PER_SECOND, FAILURES_BURST, MAX_TRACKED_ADDRESSES);

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e) throws IOException {
        unauthenticated(request, response);
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        unauthenticated(request, response);
    }

    private void unauthenticated(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ConsumptionProbe probe = failures.take(ConnectionsPerClient.clientOf(request.getRemoteAddr()));
        if (!probe.isConsumed()) {
            long seconds = RateBuckets.retryAfterSeconds(probe);
            response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(seconds));
            ErrorResponses.writeUnread(request, response, 429, ErrorCodes.RATE_LIMITED,
                    "Too many failed authentications from this address; retry after " + seconds + " s");
            return;
        }
        // RFC 9110: a 401 names the scheme to use; MCP clients read it to tell a missing credential from a failure.
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        ErrorResponses.writeUnread(request, response, 401, ErrorCodes.UNAUTHORIZED,
                "Expected a valid workspace token in the " + ApiPaths.TOKEN_HEADER + " header or as Authorization: Bearer <token>");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e) throws IOException {
        Object token = request.getAttribute(RequestScope.TOKEN_RECORD_ATTRIBUTE);
        boolean metrics = ApiPaths.PROMETHEUS.equals(request.getServletPath());
        if (request.getServletPath().startsWith("/workspaces") || metrics) {
            String whose = token instanceof TokenRecord record
                    ? " is a token of workspace '" + record.workspace() + "' with role " + record.effectiveRole().wireName()
                    : " is not";
            ErrorResponses.writeUnread(request, response, 403, HttpErrorCodes.FORBIDDEN, "Expected the platform administrator's token (an admin "
                    + "token of workspace 'default'), but this" + whose + (metrics
                    ? "; the platform's metrics span every workspace" : "; workspaces are managed by the platform administrator only"));
            return;
        }
        String role = token instanceof TokenRecord record ? " (" + record.effectiveRole().wireName() + ")" : "";
        ErrorResponses.writeUnread(request, response, 403, HttpErrorCodes.FORBIDDEN,
                "Expected a token whose role allows " + request.getMethod() + " " + request.getServletPath()
                        + ", but this token's role" + role + " does not; ask a workspace admin for a token with a wider role");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException e) throws IOException {
        ErrorResponses.writeUnread(request, response, 400, HttpErrorCodes.INVALID_REQUEST,
                "Expected a plain path (no ';', encoded '/' or '\\', NUL, or '.' and '..' segments) and headers without control "
                        + "characters");
    }
}
