package dev.sopline.gateway.api;

import dev.sopline.gateway.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** CONTRACT section 3: the body stays an array; {@code limit} and {@code cursor}; a {@code Link: rel="next"} when more exist. */
final class Pagination {

    /** An instance id: the cursor of the instance list. */
    static final Pattern INSTANCE_CURSOR = Pattern.compile("[0-9A-HJKMNP-TV-Z]{26}");
    /** A pending entry's place in its feed: when it became ready, its instance and its step. */
    static final Pattern PENDING_CURSOR = Pattern.compile("[0-9]{15}\\|[0-9A-HJKMNP-TV-Z]{26}\\|[^|]{1,300}");
    static final Pattern HISTORY_CURSOR = Pattern.compile("[0-9]{1,18}");

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

    /**
     * The cursor a client gave back, or null for the first page. A cursor of another shape was never one the API gave:
     * 400, where reading it as a position would have answered with some other page.
     */
    static String cursor(String given, Pattern shape) {
        if (given == null || given.isEmpty()) {
            return null;
        }
        if (!shape.matcher(given).matches()) {
            throw new ApiException(400, "invalid_parameter", "Expected cursor to be the one in the previous page's Link header");
        }
        return given;
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
