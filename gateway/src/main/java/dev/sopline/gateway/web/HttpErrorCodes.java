package dev.sopline.gateway.web;

/** Error codes only the HTTP layer gives (CONTRACT section 8); the engine's are in {@code ErrorCodes}. */
public final class HttpErrorCodes {

    public static final String INVALID_REQUEST = "invalid_request";
    public static final String FORBIDDEN = "forbidden";
    public static final String REQUEST_TIMEOUT = "request_timeout";
    public static final String UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type";
    public static final String HEADERS_TOO_LARGE = "request_header_fields_too_large";

    private HttpErrorCodes() {}
}
