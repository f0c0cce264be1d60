package dev.sopline.engine.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The engine replica's static group membership id ({@code group.instance.id}), kept in its state directory so a replica
 * restarted on the same directory is the same member. Restarted after a crash, it takes its place in the group at
 * once; a new member would wait for the dead one's session to expire first. A clean stop still leaves the group
 * (the engine closes with {@code LEAVE_GROUP}), so the other replicas take over its partitions without waiting.
 * Two replicas never share a state directory, so never an id.
 */
final class StableMemberId {

    private static final String FILE = "member-id";

    private StableMemberId() {}

    static String of(Path stateDir) {
        Path file = stateDir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                String stored = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (!stored.isEmpty()) {
                    return stored;
                }
            }
            Files.createDirectories(stateDir);
            String created = "sop-engine-" + UUID.randomUUID();
            Files.writeString(file, created, StandardCharsets.UTF_8);
            return created;
        } catch (IOException e) {
            throw new UncheckedIOException("Expected to keep the engine's member id in " + file, e);
        }
    }
}
