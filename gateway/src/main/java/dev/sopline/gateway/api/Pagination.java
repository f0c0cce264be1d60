package dev.sopline.gateway.api;

import dev.sopline.gateway.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** CONTRACT section 3: the body stays an array; {@code limit} and {@code cursor}; a {@code Link: rel="next"} when more exist. */
final class Pagination {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private Pagination() {}

    static int limit(Integer requested) {
        if (requested == null) {
            return DEFAULT_LIMIT;
        }
        if (requested < 1 || requested > MAX_LIMIT) {
            throw new ApiException(400, "invalid_parameter", "Expected limit between 1 and " + MAX_LIMIT);
        }
        return requested;
    }

    static <T> ResponseEntity<List<T>> respond(List<T> items, String nextCursor, HttpServletRequest request) {
        ResponseEntity.BodyBuilder builder = ResponseEntity.ok();
        if (nextCursor != null) {
            String next = ServletUriComponentsBuilder.fromRequest(request).replaceQueryParam("cursor", nextCursor).build().encode().toUriString();
            builder.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
        }
        return builder.body(items);
    }
}
