package dev.sopline.engine.processor;

import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.state.WaitingStart;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.StartInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Starts that name a process version this replica does not hold yet. A registration reaches every replica's global
 * store through the definitions topic a moment after the replica that took it has replied, so a start sent right
 * after the 201 can land on a replica still a few milliseconds behind. Instead of answering 404 for a process the
 * sender has just seen published (or starting the version before it), the start waits in a changelogged store and
 * is tried again at every punctuation, until the version arrives or {@link #LIMIT} has passed; then it is decided as
 * usual, which answers 404 if the process is still unknown.
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

    /** Holds the command if it is a start whose version is not here yet and its wait is not over; true if held. */
    boolean holdIfEarly(Command command, Instant receivedAt, Instant now) {
        Optional<StartInstance> start = startIn(command);
        if (start.isEmpty() || !now.isBefore(receivedAt.plus(LIMIT)) || isVisible(start.get())) {
            return false;
        }
        WaitingStart waiting = new WaitingStart(command, receivedAt);
        store.put(waiting.storeKey(), waiting);
        return true;
    }

    /** Removes and returns every waiting start, oldest first; those still early are held again by the caller. */
    List<WaitingStart> takeAll() {
        List<KeyValue<String, WaitingStart>> taken = new ArrayList<>();
        try (KeyValueIterator<String, WaitingStart> all = store.all()) {
            all.forEachRemaining(taken::add);
        }
        taken.forEach(entry -> store.delete(entry.key));
        return taken.stream().map(entry -> entry.value).toList();
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

    private static Optional<StartInstance> startIn(Command command) {
        Command inner = command instanceof IdempotentCommand idempotent ? idempotent.command() : command;
        return inner instanceof StartInstance start ? Optional.of(start) : Optional.empty();
    }
}
