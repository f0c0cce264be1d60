package dev.sopline.gateway.auth;

import dev.sopline.gateway.config.SopProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The first token of workspace {@code default} (CONTRACT section 1): {@code SOP_BOOTSTRAP_TOKEN} if set; otherwise,
 * when no token exists at all, a generated one, printed once and written to {@code $SOP_DATA_DIR/bootstrap-token}.
 */
@Component
public class BootstrapToken implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(BootstrapToken.class);
    public static final String WORKSPACE = "default";

    private final SopProperties properties;
    private final TokenRegistry tokens;
    private volatile boolean done;

    public BootstrapToken(SopProperties properties, TokenRegistry tokens) {
        this.properties = properties;
        this.tokens = tokens;
    }

    @Override
    public void start() {
        Instant now = Instant.now();
        String configured = properties.bootstrapToken();
        if (configured != null && !configured.isBlank()) {
            String hash = TokenHashing.hashHex(configured);
            // The id derives from the hash, so restarts with the same value find the same record.
            String id = "tok_" + hash.substring(0, 20);
            if (tokens.find(WORKSPACE, id).filter(record -> record.isUsableAt(now)).isEmpty()) {
                tokens.save(new TokenRecord(id, WORKSPACE, "bootstrap", hash, now, null, null));
            }
        } else if (!tokens.anyUsable(now)) {
            String secret = TokenHashing.newSecret();
            tokens.save(new TokenRecord(TokenIds.next(), WORKSPACE, "bootstrap", TokenHashing.hashHex(secret), now, null, null));
            Path file = properties.dataDir().resolve("bootstrap-token");
            write(file, secret);
            // Printed once, on purpose: this is the one moment the secret exists outside the operator's own copy.
            System.out.println("Bootstrap token for workspace 'default' (also in " + file.toAbsolutePath() + "): " + secret);
        }
        done = true;
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
