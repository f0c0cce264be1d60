package dev.sopline.gateway.command;

import dev.sopline.gateway.web.ApiException;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.InstanceCommand;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * The {@code Idempotency-Key} header (CONTRACT section 3): up to 255 printable characters, scoped to the workspace and
 * the caller, with a fingerprint of the request so that the same key with another request can be refused.
 */
@Component
public class IdempotencyKeys {

    public static final String HEADER = "Idempotency-Key";
    private static final Pattern PRINTABLE = Pattern.compile("[\\x21-\\x7E]{1,255}");

    /** The key of this request, if it carries one; 400 when it is malformed. */
    public Optional<IdempotencyKey> of(HttpServletRequest request, String workspace, String caller, byte[] body) {
        return of(request.getHeader(HEADER), request, workspace, caller, body);
    }

    /** The key given by {@code value} (a header the caller names, such as a provider's delivery id). */
    public Optional<IdempotencyKey> of(String value, HttpServletRequest request, String workspace, String caller, byte[] body) {
        if (value == null) {
            return Optional.empty();
        }
        if (!PRINTABLE.matcher(value).matches()) {
            throw new ApiException(400, "invalid_parameter", "Expected an Idempotency-Key of 1 to 255 printable characters");
        }
        String scope = workspace + "|" + caller + "|" + value;
        return Optional.of(new IdempotencyKey(scope, fingerprint(request, body)));
    }

    public static InstanceCommand wrap(Optional<IdempotencyKey> key, InstanceCommand command) {
        return key.<InstanceCommand>map(found -> new IdempotentCommand(found, command)).orElse(command);
    }

    private static String fingerprint(HttpServletRequest request, byte[] body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            // The decoded path the request is routed by: one request written two ways is the same request.
            digest.update((request.getMethod() + " " + request.getServletPath() + "\n").getBytes(StandardCharsets.UTF_8));
            if (body != null) {
                digest.update(body);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
