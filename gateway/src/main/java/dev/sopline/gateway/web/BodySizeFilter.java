package dev.sopline.gateway.web;

import dev.sopline.schemas.command.ErrorCodes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses JSON bodies over 1 MiB before they are read (CONTRACT section 3); process files have their own 256 KiB
 * multipart limit. Bodies without a declared length are capped while read, in {@code JsonBodies}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class BodySizeFilter extends OncePerRequestFilter {

    public static final long MAX_JSON_BYTES = 1024 * 1024;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String type = request.getContentType();
        boolean multipart = type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/");
        if (!multipart && request.getContentLengthLong() > MAX_JSON_BYTES) {
            ErrorResponses.write(response, 413, ErrorCodes.PAYLOAD_TOO_LARGE, "Expected a body of at most 1 MiB");
            return;
        }
        chain.doFilter(request, response);
    }
}
