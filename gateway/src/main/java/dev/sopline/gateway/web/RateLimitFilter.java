package dev.sopline.gateway.web;

import dev.sopline.gateway.auth.TokenAuthenticationFilter;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.command.ErrorCodes;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Token buckets (Bucket4j) per token, and per client address for the unauthenticated trigger and callback routes
 * (CONTRACT section 3). Buckets are per gateway replica: N replicas allow up to N times the rate in total.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class RateLimitFilter extends OncePerRequestFilter {

    private final SopProperties properties;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimitFilter(SopProperties properties) {
        this.properties = properties;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !(path.startsWith("/sop") || path.startsWith("/workspace"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Object token = request.getAttribute(TokenAuthenticationFilter.TOKEN_ATTRIBUTE);
        String key = token != null ? "token:" + token : "address:" + request.getRemoteAddr();
        ConsumptionProbe probe = buckets.computeIfAbsent(key, ignored -> newBucket()).tryConsumeAndReturnRemaining(1);
        if (!probe.isConsumed()) {
            long seconds = Math.max(1, Duration.ofNanos(probe.getNanosToWaitForRefill()).toSeconds() + 1);
            response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(seconds));
            ErrorResponses.write(response, 429, ErrorCodes.RATE_LIMITED, "Too many requests; retry after " + seconds + " s");
            return;
        }
        chain.doFilter(request, response);
    }

    private Bucket newBucket() {
        SopProperties.RateLimit limit = properties.rateLimit();
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(limit.burst()).refillGreedy(limit.perSecond(), Duration.ofSeconds(1)).build())
                .build();
    }
}
