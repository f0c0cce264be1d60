package dev.sopline.gateway.api;

import dev.sopline.gateway.auth.TokenAuthenticationFilter;
import dev.sopline.gateway.config.SopProperties;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** What a request acts on: its token's workspace, and the public base URL links are built from. */
@Component
public class RequestScope {

    private final SopProperties properties;

    public RequestScope(SopProperties properties) {
        this.properties = properties;
    }

    public String workspace(HttpServletRequest request) {
        return (String) request.getAttribute(TokenAuthenticationFilter.WORKSPACE_ATTRIBUTE);
    }

    /** Who is calling, for scoping idempotency keys: the token's id. */
    public String caller(HttpServletRequest request) {
        return (String) request.getAttribute(TokenAuthenticationFilter.TOKEN_ATTRIBUTE);
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
