package dev.sopline.gateway.auth;

import dev.sopline.gateway.config.SopProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The first token of workspace {@code default} (CONTRACT section 1), with role {@code admin}: {@code SOP_BOOTSTRAP_TOKEN}
 * if set; otherwise, when no bootstrap token was ever made, a generated one, printed once and written to
 * {@code $SOP_DATA_DIR/bootstrap-token}.
 *
 * <p>Revoking it is permanent (CONTRACT section 8): its record stays, revoked, and a restart with the same value
 * does not bring it back. An operator who needs a way in again sets {@code SOP_BOOTSTRAP_TOKEN} to a new value.
 */
@Component
public class BootstrapToken implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(BootstrapToken.class);
    public static final String WORKSPACE = "default";
    static final String NAME = "bootstrap";

    private final SopProperties properties;
    private final TokenRegistry tokens;
    private volatile boolean done;

    public BootstrapToken(SopProperties properties, TokenRegistry tokens) {
        this.properties = properties;
        this.tokens = tokens;
    }

    /** The id of a configured bootstrap token derives from its hash, so restarts with the same value find the same record. */
    static String idOf(String hash) {
        return "tok_" + hash.substring(0, 20);
    }

    @Override
    public void start() {
        Instant now = Instant.now();
        String configured = properties.bootstrapToken();
        if (configured != null && !configured.isBlank()) {
            String hash = TokenHashing.hashHex(configured);
            Optional<TokenRecord> stored = tokens.find(WORKSPACE, idOf(hash));
            if (stored.isEmpty()) {
                tokens.save(new TokenRecord(idOf(hash), WORKSPACE, NAME, hash, now, null, null, Role.ADMIN));
            } else if (!stored.get().isUsableAt(now)) {
                LOG.warn("SOP_BOOTSTRAP_TOKEN names a token that was revoked on {}; it stays revoked. Set a new value to get an admin token.",
                        stored.get().revokedAt());
            }
        } else if (tokens.all().stream().noneMatch(BootstrapToken::isBootstrap)) {
            String secret = TokenHashing.newSecret();
            tokens.save(new TokenRecord(TokenIds.next(), WORKSPACE, NAME, TokenHashing.hashHex(secret), now, null, null, Role.ADMIN));
            Path file = properties.dataDir().resolve("bootstrap-token");
            write(file, secret);
            // Printed once, on purpose: this is the one moment the secret exists outside the operator's own copy.
            System.out.println("Bootstrap token for workspace 'default' (also in " + file.toAbsolutePath() + "): " + secret);
        }
        done = true;
    }

    static boolean isBootstrap(TokenRecord record) {
        return WORKSPACE.equals(record.workspace()) && NAME.equals(record.name()) && record.effectiveRole() == Role.ADMIN;
    }

    private static void write(Path file, String secret) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, secret + System.lineSeparator());
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system; the directory's permissions apply
            }
        } catch (IOException e) {
            LOG.warn("Could not write the bootstrap token to {}: {}", file, e.getMessage());
        }
    }

    @Override
    public void stop() {
        done = false;
    }

    @Override
    public boolean isRunning() {
        return done;
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 3000;
    }
}
