package dev.sopline.gateway.web;

import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.gateway.command.EngineUnavailableException;
import dev.sopline.schemas.command.ErrorCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.support.MissingServletRequestPartException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/** Turns every failure into a JSON error with the contract's code; a client never sees a stack trace. */
@RestControllerAdvice
public class ApiErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ApiErrorHandler.class);
    static final String RETRY_AFTER_SECONDS = "1";

    /**
     * Errors are JSON whatever the request accepts: presetting the content type keeps an error of an event-stream
     * endpoint from turning into a 406.
     */
    private static ResponseEntity.BodyBuilder error(int status) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON);
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ErrorBody> refused(ApiException e) {
        return error(e.status()).body(e.body());
    }

    /** Not logged one by one: under overload there is one a request, and {@code sop.gateway.commands.turned_away} counts them. */
    @ExceptionHandler(CommandsInFlightFullException.class)
    ResponseEntity<ErrorBody> turnedAway(CommandsInFlightFullException e) {
        return error(HttpStatus.SERVICE_UNAVAILABLE.value())
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(ErrorBody.of(ErrorCodes.UNAVAILABLE, CommandsInFlightFullException.ANSWER));
    }

    @ExceptionHandler({EngineUnavailableException.class, StateUnavailableException.class})
    ResponseEntity<ErrorBody> unavailable(RuntimeException e) {
        LOG.warn("Answering 503: {}", e.getMessage());
        return error(HttpStatus.SERVICE_UNAVAILABLE.value())
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(ErrorBody.of(ErrorCodes.UNAVAILABLE, "The engine is not ready to answer; retry after the delay in Retry-After"));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorBody> unreadable(HttpMessageNotReadableException e) {
        return error(400).body(ErrorBody.of(ErrorCodes.INVALID_PAYLOAD, "Expected a JSON body"));
    }

    @ExceptionHandler({MissingServletRequestParameterException.class, MethodArgumentTypeMismatchException.class,
            MissingRequestHeaderException.class})
    ResponseEntity<ErrorBody> badParameter(Exception e) {
        return error(400).body(ErrorBody.of("invalid_parameter", "Expected valid request parameters"));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorBody> mediaType(HttpMediaTypeNotSupportedException e) {
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE.value())
                .body(ErrorBody.of("unsupported_media_type", "Expected Content-Type " + e.getSupportedMediaTypes()));
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ErrorBody> notAcceptable(HttpMediaTypeNotAcceptableException e) {
        return error(HttpStatus.NOT_ACCEPTABLE.value()).body(ErrorBody.of("not_acceptable", "Responses are application/json"));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ErrorBody> method(HttpRequestMethodNotSupportedException e) {
        return error(HttpStatus.METHOD_NOT_ALLOWED.value())
                .body(ErrorBody.of("method_not_allowed", "Expected one of " + e.getSupportedHttpMethods() + " on this path"));
    }

    @ExceptionHandler({NoResourceFoundException.class, NoHandlerFoundException.class})
    ResponseEntity<ErrorBody> noRoute(Exception e) {
        return error(HttpStatus.NOT_FOUND.value()).body(ErrorBody.of(ErrorCodes.NOT_FOUND, "No such resource"));
    }

    @ExceptionHandler(MaxUploadSizeExceededException.class)
    ResponseEntity<ErrorBody> tooLarge(MaxUploadSizeExceededException e) {
        return error(HttpStatus.PAYLOAD_TOO_LARGE.value())
                .body(ErrorBody.of(ErrorCodes.PAYLOAD_TOO_LARGE, "Expected a process file of at most 256 KiB"));
    }

    @ExceptionHandler({MissingServletRequestPartException.class, MultipartException.class})
    ResponseEntity<ErrorBody> multipart(Exception e) {
        return error(400)
                .body(ErrorBody.of(ErrorCodes.INVALID_PAYLOAD, "Expected multipart/form-data with the process YAML in the field 'file'"));
    }

    /** The client went away (a browser leaving a page with an open event stream): there is no one to answer. */
    @ExceptionHandler(AsyncRequestNotUsableException.class)
    void clientGone(AsyncRequestNotUsableException e) {
        LOG.debug("Client disconnected: {}", e.getMessage());
    }

    /** A query string Tomcat cannot decode ({@code ?process=%FF}): the client's mistake, CONTRACT section 8's 400. */
    @ExceptionHandler(org.apache.tomcat.util.http.InvalidParameterException.class)
    ResponseEntity<ErrorBody> undecodableParameters(Exception e) {
        return error(400).body(ErrorBody.of("invalid_request", "Expected a query string of valid percent-encoded UTF-8"));
    }

    /**
     * A header the firewall refuses (a control character, such as a UTF-8 "ß" read as ISO-8859-1), when a controller
     * is the first to read it ({@code Idempotency-Key}, a trigger's signature): the client's mistake, answered as the
     * security chain answers it, without the header's value in the answer or the log.
     */
    @ExceptionHandler(RequestRejectedException.class)
    ResponseEntity<ErrorBody> rejectedHeader(RequestRejectedException e) {
        return error(400).body(ErrorBody.of(HttpErrorCodes.INVALID_REQUEST, "Expected headers without control characters"));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ErrorBody> unexpected(Exception e) {
        LOG.error("Unexpected failure while answering a request", e);
        return error(HttpStatus.INTERNAL_SERVER_ERROR.value()).body(ErrorBody.of("internal", "The gateway met an internal error"));
    }
}
