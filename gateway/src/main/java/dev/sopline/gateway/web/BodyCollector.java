package dev.sopline.gateway.web;

import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.json.Json;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * One request body read without blocking: the container calls {@link #onDataAvailable} as bytes arrive, and this
 * hands the whole body on, or answers 413 past the size limit, 408 past the read timeout, 503 when the gateway's
 * buffer budget is spent. Exactly one of those happens, whichever comes first.
 */
final class BodyCollector implements ReadListener, AsyncListener {

    private static final Logger LOG = LoggerFactory.getLogger(BodyCollector.class);
    private static final int CHUNK = 8192;

    private final AsyncContext async;
    private final ServletInputStream input;
    private final long maxBytes;
    private final BufferBudget.Share budget;
    private final Consumer<byte[]> onBody;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final byte[] chunk;
    private final AtomicBoolean finished = new AtomicBoolean();
    private long reserved;

    /** {@code arrived}: the body's first bytes, read before going async and already counted in {@code budget}. */
    BodyCollector(AsyncContext async, long maxBytes, BufferBudget.Share budget, ArrivedBytes arrived, Consumer<byte[]> onBody)
            throws IOException {
        this.async = async;
        this.input = async.getRequest().getInputStream();
        this.maxBytes = maxBytes;
        this.budget = budget;
        this.onBody = onBody;
        // Most bodies are a few hundred bytes: a read buffer of their declared length, not 8 KiB for each request.
        long declared = async.getRequest().getContentLengthLong();
        this.chunk = new byte[declared > 0 && declared < CHUNK ? (int) declared : CHUNK];
        body.write(arrived.bytes(), 0, arrived.length());
        reserved = arrived.length();
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (!finished.get() && input.isReady()) {
            int read = input.read(chunk);
            if (read < 0) {
                return;
            }
            if (body.size() + (long) read > maxBytes) {
                refuse(413, ErrorCodes.PAYLOAD_TOO_LARGE, "Expected a body of at most 1 MiB");
                return;
            }
            if (!budget.reserve(read)) {
                refuse(503, ErrorCodes.UNAVAILABLE, "The gateway is reading too many request bodies at once; retry after the delay in Retry-After");
                return;
            }
            reserved += read;
            body.write(chunk, 0, read);
        }
    }

    @Override
    public void onAllDataRead() {
        if (finished.compareAndSet(false, true)) {
            onBody.accept(body.toByteArray());
        }
    }

    @Override
    public void onError(Throwable error) {
        if (error instanceof SocketTimeoutException) {
            // The container's own read timeout: the same answer as this collector's.
            onTimeout(null);
            return;
        }
        // The client went away or broke the request mid-body: there is no one to answer.
        if (finished.compareAndSet(false, true)) {
            LOG.debug("Reading a request body failed: {}", error.toString());
            async.complete();
        }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        refuse(408, HttpErrorCodes.REQUEST_TIMEOUT, "Expected the whole request body within the read timeout, but it did not arrive in time");
    }

    @Override
    public void onComplete(AsyncEvent event) {
        budget.release(reserved);
        reserved = 0;
    }

    @Override
    public void onError(AsyncEvent event) {
        onError(event.getThrowable());
    }

    /**
     * The handler the body was handed to started async processing again (a held read, an event stream): the
     * container tells the listeners of the cycle before of the new one and nothing more, so this registers again to
     * hear the request's end and release its bytes. By then the body has been handed on, so the new cycle's time-out
     * or error finds this finished and does nothing.
     */
    @Override
    public void onStartAsync(AsyncEvent event) {
        event.getAsyncContext().addListener(this);
    }

    /** Answers and closes the connection: the rest of the body is not read. */
    private void refuse(int status, String code, String message) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        try {
            response.setStatus(status);
            response.setHeader(HttpHeaders.CONNECTION, "close");
            if (status == 503) {
                response.setHeader(HttpHeaders.RETRY_AFTER, "1");
            }
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.getOutputStream().write(Json.mapper().writeValueAsBytes(ErrorBody.of(code, message)));
        } catch (IOException | IllegalStateException e) {
            LOG.debug("Could not answer {} to a request whose body was refused: {}", status, e.toString());
        } finally {
            async.complete();
        }
    }
}
