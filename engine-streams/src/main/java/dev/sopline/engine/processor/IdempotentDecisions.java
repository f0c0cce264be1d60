package dev.sopline.engine.processor;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.state.IdempotencyRecord;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.InstanceCommand;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Idempotency around deciding: a repeat gets the first answer; the same key with another request is refused; a new
 * key is decided and its answer kept for {@link IdempotencyRecord#RETENTION}. A record past its expiry counts as gone
 * even before its timer removes it, so the outcome depends on the command's time only, never on when punctuation ran.
 */
final class IdempotentDecisions {

    /** Where the first answers are kept, by the key's scope: the engine's idempotency store. */
    interface Records {

        IdempotencyRecord get(String scope);

        void put(String scope, IdempotencyRecord record);

        void delete(String scope);

        static Records in(KeyValueStore<String, IdempotencyRecord> store) {
            return new Records() {
                @Override
                public IdempotencyRecord get(String scope) {
                    return store.get(scope);
                }

                @Override
                public void put(String scope, IdempotencyRecord record) {
                    store.put(scope, record);
                }

                @Override
                public void delete(String scope) {
                    store.delete(scope);
                }
            };
        }
    }

    private final Records records;
    private final Consumer<Timer> timers;

    /** @param timers sets a timer; each kept answer gets one that forgets it when it expires */
    IdempotentDecisions(Records records, Consumer<Timer> timers) {
        this.records = records;
        this.timers = timers;
    }

    /**
     * @param decide decides the carried command (one read of its instance, nothing written); called only for a key
     *     not seen within its retention
     * @return the first answer again, the refusal of a reused key, or the carried command's decision
     */
    Decided decide(IdempotentCommand command, Instant now, Function<InstanceCommand, Decided> decide) {
        IdempotencyKey key = command.idempotency();
        IdempotencyRecord seen = records.get(key.scope());
        if (seen != null && now.isBefore(seen.expiresAt())) {
            return Decided.answer(seen.requestHash().equals(key.requestHash())
                    ? Decision.answer(seen.reply().answering(command.commandId()))
                    : Decision.reject(CommandReply.rejected(command.commandId(), 422, ErrorCodes.IDEMPOTENCY_KEY_REUSED,
                            "Expected a new Idempotency-Key for a different request, but this key was used for another one")));
        }
        Decided decided = decide.apply(command.command());
        // An engine error is not an answer to keep: the same request may succeed when sent again.
        decided.decision().reply().filter(reply -> reply.status() < 500).ifPresent(reply -> {
            Instant expiresAt = now.plus(IdempotencyRecord.RETENTION);
            records.put(key.scope(), new IdempotencyRecord(key.requestHash(), reply, expiresAt));
            timers.accept(new Timer(expiresAt, Timer.Kind.FORGET_IDEMPOTENCY, command.workspace(), key.scope(), null, 0));
        });
        return decided;
    }

    /** Only the record this timer was set for: a key reused after its expiry has a newer record and its own timer. */
    void forget(Timer timer) {
        IdempotencyRecord stored = records.get(timer.target());
        if (stored != null && !stored.expiresAt().isAfter(timer.dueAt())) {
            records.delete(timer.target());
        }
    }
}
