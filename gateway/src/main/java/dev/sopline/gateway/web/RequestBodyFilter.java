package dev.sopline.gateway.web;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.command.ErrorCodes;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads every JSON or raw request body in full before a handler runs, without holding a request thread while the
 * bytes arrive (CONTRACT section 8):
 * <ul>
 *   <li>the body is read with the servlet container's non-blocking input ({@link BodyCollector}), so a client that
 *       trickles its body ties up a connection, not one of the threads every other request needs;</li>
 *   <li>the 1 MiB limit counts the bytes as they are read, chunked or not: past it the answer is 413 and the rest is
 *       not read;</li>
 *   <li>the whole body must arrive within {@code SOP_REQUEST_READ_TIMEOUT} (10 s), else 408;</li>
 *   <li>all bodies being read at once hold at most {@link #BUFFER_BUDGET_BYTES} together, and those of one client
 *       (an IPv4 address, an IPv6 /64) an eighth of it; past either, 503.</li>
 * </ul>
 * Then the request is dispatched again, with the buffered body, through the rest of the chain to its handler. A body
 * whose every byte has already arrived with the request's head (most bodies: a few hundred bytes in the same packet)
 * is taken as it is and handed on at once, without going async and passing the chain a second time. It runs after
 * the security chain and the rate limits, so a request without the right token or over its budget is refused before
 * any of its body is read.
 *
 * <p>Process files ({@code multipart/form-data}) are read by the servlet container's own multipart parser, which
 * reads the request's stream itself: they keep the blocking read, capped at 300 KB by the multipart limits, and only
 * tokens with the {@code operator} role may send them, to their one route. A multipart body to any other route is
 * answered 415 unread.
 */
@Component
@Order(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 20)
public class RequestBodyFilter extends OncePerRequestFilter {

    public static final long MAX_JSON_BYTES = 1024 * 1024;
    static final long BUFFER_BUDGET_BYTES = Math.min(256L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4);
    private static final String BODY_ATTRIBUTE = RequestBodyFilter.class.getName() + ".body";
    private static final String PROCESS_FILES = "/sop/processes/register";

    private final long readTimeoutMillis;
    private final BufferBudget budget;

    @Autowired
    public RequestBodyFilter(SopProperties properties) {
        this(properties, BUFFER_BUDGET_BYTES);
    }

    RequestBodyFilter(SopProperties properties, long budgetBytes) {
        this.readTimeoutMillis = properties.requestReadTimeout().toMillis();
        this.budget = new BufferBudget(budgetBytes);
    }

    /** The second pass, after the body has arrived, is an async dispatch: it hands the body on. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isAsyncDispatch(request)) {
            Object body = request.getAttribute(BODY_ATTRIBUTE);
            request.removeAttribute(BODY_ATTRIBUTE);
            chain.doFilter(body instanceof byte[] bytes ? new BufferedBodyRequest(request, bytes) : request, response);
            return;
        }
        if (!ErrorResponses.hasBody(request)) {
            chain.doFilter(request, response);
            return;
        }
        if (isMultipart(request)) {
            if (takesProcessFiles(request)) {
                chain.doFilter(request, response);
                return;
            }
            // Spring MVC reads a multipart body whole, blocking this thread, before it picks a handler: on any other
            // route, without a token on the open ones, slow multipart bodies would hold every request thread.
            ErrorResponses.writeUnread(request, response, 415, HttpErrorCodes.UNSUPPORTED_MEDIA_TYPE,
                    "Expected Content-Type application/json; only POST " + PROCESS_FILES + " takes multipart/form-data");
            return;
        }
        if (request.getContentLengthLong() > MAX_JSON_BYTES) {
            ErrorResponses.writeUnread(request, response, 413, ErrorCodes.PAYLOAD_TOO_LARGE, "Expected a body of at most 1 MiB");
            return;
        }
        ArrivedBytes arrived = ArrivedBytes.NONE;
        long declared = request.getContentLengthLong();
        BufferBudget.Share share = budget.of(ConnectionsPerClient.clientOf(request.getRemoteAddr()));
        if (declared > 0 && declared <= ArrivedBytes.MAX_BYTES) {
            if (!share.reserve(declared)) {
                response.setHeader(HttpHeaders.RETRY_AFTER, "1");
                ErrorResponses.writeUnread(request, response, 503, ErrorCodes.UNAVAILABLE,
                        "The gateway is reading too many request bodies at once, or too many of this client's; retry after the delay in Retry-After");
                return;
            }
            try {
                arrived = ArrivedBytes.read(request.getInputStream(), (int) declared);
            } catch (IOException | RuntimeException e) {
                share.release(declared);
                throw e;
            }
            if (arrived.complete()) {
                try {
                    chain.doFilter(new BufferedBodyRequest(request, arrived.bytes()), response);
                } finally {
                    share.release(declared);
                }
                return;
            }
            // The bytes read so far stay counted; the collector counts the rest as it arrives and releases it all.
            share.release(declared - arrived.length());
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(readTimeoutMillis);
        BodyCollector collector = new BodyCollector(async, MAX_JSON_BYTES, share, arrived,
                body -> {
                    request.setAttribute(BODY_ATTRIBUTE, body);
                    async.dispatch();
                });
        async.addListener(collector);
        request.getInputStream().setReadListener(collector);
    }

    /** The bytes of request bodies held now, for tests. */
    long bufferedBytes() {
        return budget.used();
    }

    /** The bytes of request bodies one client holds now, for tests. */
    long bufferedBytesOf(String client) {
        return budget.usedBy(client);
    }

    /** The one route that takes {@code multipart/form-data}: by its decoded path, as Spring MVC routes it. */
    private static boolean takesProcessFiles(HttpServletRequest request) {
        return "POST".equals(request.getMethod()) && PROCESS_FILES.equals(request.getServletPath());
    }


    private static boolean isMultipart(HttpServletRequest request) {
        String type = request.getContentType();
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/");
    }
}
