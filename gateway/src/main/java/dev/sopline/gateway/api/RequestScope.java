package dev.sopline.gateway.api;

import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.config.SopProperties;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** What a request acts on: its token's workspace, and the public base URL links are built from. */
@Component
public class RequestScope {

    /** Set by the security chain once the request's token is authenticated. */
    public static final String WORKSPACE_ATTRIBUTE = "sop.workspace";
    public static final String TOKEN_ATTRIBUTE = "sop.token";
    public static final String TOKEN_RECORD_ATTRIBUTE = "sop.token.record";

    private final SopProperties properties;

    public RequestScope(SopProperties properties) {
        this.properties = properties;
    }

    public String workspace(HttpServletRequest request) {
        return (String) request.getAttribute(WORKSPACE_ATTRIBUTE);
    }

    /** Who is calling, for scoping idempotency keys: the token's id. */
    public String caller(HttpServletRequest request) {
        return (String) request.getAttribute(TOKEN_ATTRIBUTE);
    }

    /** The calling token's stored record: its role, expiry and name. */
    public TokenRecord token(HttpServletRequest request) {
        return (TokenRecord) request.getAttribute(TOKEN_RECORD_ATTRIBUTE);
    }

    /**
     * The base of a webhook step's {@code callback_url} as this caller is shown it, or null when it is shown none. The
     * URL is the credential that resolves the step, without a token, so only tokens that may resolve steps (worker and
     * above) see it; a viewer would otherwise complete a third party's step.
     */
    public String callbackBase(HttpServletRequest request) {
        return mayResolveSteps(request) ? baseUrl() : null;
    }

    /** Whether the calling token's role allows resolving steps: worker and above. */
    public boolean mayResolveSteps(HttpServletRequest request) {
        TokenRecord token = token(request);
        return token != null && token.effectiveRole().includes(Role.WORKER);
    }

    /** {@code SOP_PUBLIC_URL} when set, else the scheme, host and port the request came to. */
    public String baseUrl() {
        String configured = properties.publicUrl();
        if (configured != null && !configured.isBlank()) {
            return configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
        }
        return ServletUriComponentsBuilder.fromCurrentContextPath().build().toUriString();
    }
}
