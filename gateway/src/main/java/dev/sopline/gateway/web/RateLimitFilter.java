package dev.sopline.gateway.web;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.security.ApiPaths;
import dev.sopline.schemas.command.ErrorCodes;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Token buckets per token, and per client address for the unauthenticated trigger and callback routes (CONTRACT
 * section 3). It runs right after the security filter chain, which has authenticated the token by then. Buckets are
 * per gateway replica: N replicas allow up to N times the rate in total.
 */
@Component
@Order(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 10)
public class RateLimitFilter extends OncePerRequestFilter {

    private static final int MAX_TRACKED_CLIENTS = 100_000;

    private final RateBuckets buckets;

    public RateLimitFilter(SopProperties properties) {
        this.buckets = new RateBuckets(properties.rateLimit().perSecond(), properties.rateLimit().burst(), MAX_TRACKED_CLIENTS);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // Decoded and normalised, the path security and Spring MVC route by: the raw URI let /%73op/... pass unlimited.
        String path = request.getServletPath();
        return !(path.startsWith("/sop") || path.startsWith("/workspace") || path.equals(ApiPaths.MCP));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Object token = request.getAttribute(RequestScope.TOKEN_ATTRIBUTE);
        String key = token != null ? "token:" + token : "address:" + ConnectionsPerClient.clientOf(request.getRemoteAddr());
        ConsumptionProbe probe = buckets.take(key);
        if (!probe.isConsumed()) {
            long seconds = RateBuckets.retryAfterSeconds(probe);
            response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(seconds));
            ErrorResponses.writeUnread(request, response, 429, ErrorCodes.RATE_LIMITED, "Too many requests; retry after " + seconds + " s");
            return;
        }
        chain.doFilter(request, response);
    }
}
