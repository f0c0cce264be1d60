package dev.sopline.engine.processor;

import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.state.WaitingStart;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.InstanceCommand;
import dev.sopline.schemas.command.ReleaseStart;
import dev.sopline.schemas.command.StartInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Starts that name a process version this replica does not hold yet. A registration reaches every replica's global
 * store through the definitions topic a moment after the replica that took it has replied, so a start sent right
 * after the 201 can land on a replica still a few milliseconds behind. Instead of answering 404 for a process the
 * sender has just seen published (or starting another version), the start waits in a changelogged store.
 *
 * <p>Punctuation never decides a held start: it only writes a {@link ReleaseStart} back to the command topic, once the
 * version is here or once {@link #LIMIT} has passed, and the start is let go and decided when that command is read. So
 * what a start became is in the log, and a replay after a crash decides it the same way.
 */
public final class WaitingStarts {

    /** Well inside the gateway's default 10 s command timeout, so a start that waits in vain still gets its 404. */
    public static final Duration LIMIT = Duration.ofSeconds(5);

    private final KeyValueStore<String, WaitingStart> store;
    private final DefinitionLookup definitions;

    WaitingStarts(KeyValueStore<String, WaitingStart> store, DefinitionLookup definitions) {
        this.store = store;
        this.definitions = definitions;
    }

    /** Holds the command if it is a start whose version is not here yet; true if held. */
    boolean holdIfEarly(Command command, Instant receivedAt) {
        Optional<StartInstance> start = startIn(command);
        if (start.isEmpty() || isVisible(start.get())) {
            return false;
        }
        WaitingStart waiting = new WaitingStart(command, receivedAt);
        store.put(waiting.storeKey(), waiting);
        return true;
    }

    /**
     * Up to {@code limit} held starts, oldest first, whose version has arrived or whose wait is over at {@code now},
     * each with the command that releases it, passing over those whose store key {@code skip} accepts. Those still
     * early stay held, and so do these until their command is read ({@link #letGo}).
     */
    List<KeyValue<String, ReleaseStart>> due(Instant now, int limit, Predicate<String> skip) {
        List<KeyValue<String, ReleaseStart>> due = new ArrayList<>();
        try (KeyValueIterator<String, WaitingStart> all = store.all()) {
            while (all.hasNext() && due.size() < limit) {
                KeyValue<String, WaitingStart> entry = all.next();
                if (skip.test(entry.key)) {
                    continue;
                }
                WaitingStart waiting = entry.value;
                boolean arrived = startIn(waiting.command()).map(this::isVisible).orElse(true);
                boolean over = !now.isBefore(waiting.receivedAt().plus(LIMIT));
                if (arrived || over) {
                    due.add(KeyValue.pair(entry.key,
                            new ReleaseStart((InstanceCommand) waiting.command(), waiting.receivedAt(), !arrived, true)));
                }
            }
        }
        return due;
    }

    /** The store key of the start a release names. */
    static String keyOf(ReleaseStart release) {
        return new WaitingStart(release.start(), release.receivedAt()).storeKey();
    }

    /** Lets the released start go; false if it was no longer held (its release was read before). */
    boolean letGo(ReleaseStart release) {
        String key = keyOf(release);
        if (store.get(key) == null) {
            return false;
        }
        store.delete(key);
        return true;
    }

    /**
     * Versions are only ever added, and one record holds all of a process's versions, so a replica that holds the
     * seen version holds everything up to it. Asking for that one version hits the cache of published versions
     * instead of reading the process's whole entry for every start.
     */
    private boolean isVisible(StartInstance start) {
        if (start.seenVersion() != null) {
            return definitions.version(start.workspace(), start.process(), start.seenVersion()).isPresent();
        }
        return definitions.latest(start.workspace(), start.process()).isPresent();
    }

    static Optional<StartInstance> startIn(Command command) {
        Command inner = command instanceof IdempotentCommand idempotent ? idempotent.command() : command;
        return inner instanceof StartInstance start ? Optional.of(start) : Optional.empty();
    }
}
