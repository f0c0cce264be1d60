package dev.sopline.schemas.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * A consumer group member's static id ({@code group.instance.id}), kept in a file of the process's data directory so a
 * process restarted on the same directory is the same member. Restarted after a crash, it takes its place in the group
 * at once; a new member would first wait for the dead one's session to expire (45 s by Kafka's default), and the steps,
 * commands or events of the partitions the dead one held would wait with it. The engine, its result relay, and beside
 * an engine the gateway's webhook delivery and the standalone's judgment worker each keep one; each still leaves its
 * group when it stops cleanly, so the other members take over its partitions without waiting.
 *
 * <p>Only a directory no other process shares may keep one (an engine's, which its state makes its own): the second
 * member to join under an id would fence the first.
 */
public final class StableMemberId {

    private StableMemberId() {}

    /** The id in {@code file}, or {@code prefix-<random UUID>} written there when there is none yet. */
    public static String keptIn(Path file, String prefix) {
        try {
            if (Files.exists(file)) {
                String stored = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (!stored.isEmpty()) {
                    return stored;
                }
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            String created = prefix + "-" + UUID.randomUUID();
            Files.writeString(file, created, StandardCharsets.UTF_8);
            return created;
        } catch (IOException e) {
            throw new UncheckedIOException("Expected to keep a group member id in " + file, e);
        }
    }
}
