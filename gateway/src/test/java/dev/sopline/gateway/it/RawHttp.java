package dev.sopline.gateway.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * HTTP/1.1 written by hand on a socket, for what an HTTP client library would not send as given: unnormalised
 * paths, bodies that never end, bodies sent a byte at a time.
 */
final class RawHttp implements AutoCloseable {

    record Answer(int status, String head, String body) {}

    private final Socket socket;
    private final OutputStream out;

    RawHttp(int port) {
        try {
            socket = new Socket("localhost", port);
            socket.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the request line and headers, each followed by CRLF, then the blank line. */
    RawHttp head(String requestLine, String... headers) {
        return send(headText(requestLine, headers));
    }

    /**
     * Sends the head and the body in one write, so that the body has arrived when the server reads the head. Sent
     * in two writes, the body may still be on its way when the server decides.
     */
    RawHttp whole(String requestLine, String body, String... headers) {
        return send(headText(requestLine, headers) + body);
    }

    private static String headText(String requestLine, String... headers) {
        StringBuilder text = new StringBuilder(requestLine).append("\r\nHost: localhost\r\n");
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        return text.append("\r\n").toString();
    }

    RawHttp send(String text) {
        return send(text.getBytes(StandardCharsets.UTF_8));
    }

    RawHttp send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends without failing when the server has already answered and closed the connection. */
    boolean trySend(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads until the server closes the connection or the answer's length is complete. */
    Answer answer() {
        try {
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                received.write(buffer, 0, read);
                Answer answer = parse(received.toString(StandardCharsets.UTF_8));
                if (answer != null) {
                    return answer;
                }
            }
            Answer answer = parse(received.toString(StandardCharsets.UTF_8) + "\r\n\r\n");
            if (answer == null) {
                throw new IllegalStateException("The server closed the connection without an answer: " + received);
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the server closes the connection, reading and dropping whatever else it sends. */
    void awaitClose() {
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (in.read(buffer) >= 0) {
                // until the end of the stream
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Answer parse(String text) {
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return null;
        }
        String head = text.substring(0, end);
        if (head.startsWith("HTTP/1.1 100")) {
            return parse(text.substring(end + 4));
        }
        String body = text.substring(end + 4);
        int status = Integer.parseInt(head.substring(9, 12));
        String lower = head.toLowerCase();
        int length = lower.indexOf("content-length:");
        if (length >= 0) {
            int expected = Integer.parseInt(lower.substring(length + 15, lower.indexOf("\r\n", length) < 0 ? lower.length() : lower.indexOf("\r\n", length)).trim());
            return body.getBytes(StandardCharsets.UTF_8).length >= expected ? new Answer(status, head, body.substring(0, expected)) : null;
        }
        if (lower.contains("transfer-encoding: chunked")) {
            int last = body.indexOf("\r\n0\r\n");
            if (last < 0 && !body.startsWith("0\r\n")) {
                return null;
            }
            return new Answer(status, head, dechunk(body));
        }
        return new Answer(status, head, body);
    }

    private static String dechunk(String body) {
        StringBuilder text = new StringBuilder();
        int at = 0;
        while (true) {
            int line = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, line).trim(), 16);
            if (size == 0) {
                return text.toString();
            }
            text.append(body, line + 2, line + 2 + size);
            at = line + 2 + size + 2;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a socket the server may have closed already
        }
    }
}
