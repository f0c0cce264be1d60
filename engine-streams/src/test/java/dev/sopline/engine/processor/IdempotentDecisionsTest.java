package dev.sopline.engine.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.state.IdempotencyRecord;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.InstanceCommand;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What an idempotent command comes to, given the key's stored record: state × command → outcome, without Kafka. */
class IdempotentDecisionsTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final String SCOPE = "default/token-1/key-1";

    private final Map<String, IdempotencyRecord> stored = new HashMap<>();
    private final List<Timer> timers = new ArrayList<>();
    private final List<InstanceCommand> decidedCommands = new ArrayList<>();
    private final IdempotentDecisions idempotency = new IdempotentDecisions(new MapRecords(stored), timers::add);

    @Test
    void shouldDecideAndKeepTheAnswerWhenTheKeyIsNew() {
        // when
        Decided decided = idempotency.decide(cancel("cmd-1", "hash-a"), NOW, answering(201));
        // then
        assertThat(decided.decision().reply()).contains(CommandReply.ok("cmd-1", 201, "body"));
        assertThat(decidedCommands).extracting(InstanceCommand::commandId).containsExactly("cmd-1");
        assertThat(stored).containsEntry(SCOPE, new IdempotencyRecord("hash-a", CommandReply.ok("cmd-1", 201, "body"), NOW.plus(IdempotencyRecord.RETENTION)));
        assertThat(timers).containsExactly(new Timer(NOW.plus(IdempotencyRecord.RETENTION), Timer.Kind.FORGET_IDEMPOTENCY, "default", SCOPE, null, 0));
    }

    @Test
    void shouldAnswerTheFirstAnswerAgainWhenTheSameRequestRepeats() {
        // given
        idempotency.decide(cancel("cmd-1", "hash-a"), NOW, answering(201));
        decidedCommands.clear();
        // when
        Decided repeat = idempotency.decide(cancel("cmd-2", "hash-a"), NOW.plusSeconds(60), answering(409));
        // then
        assertThat(repeat.decision().reply()).contains(CommandReply.ok("cmd-2", 201, "body"));
        assertThat(repeat.decision().newState()).isEmpty();
        assertThat(decidedCommands).isEmpty();
    }

    @Test
    void shouldRefuseTheKeyWhenAnotherRequestReusesIt() {
        // given
        idempotency.decide(cancel("cmd-1", "hash-a"), NOW, answering(201));
        decidedCommands.clear();
        // when
        Decided reused = idempotency.decide(cancel("cmd-2", "hash-b"), NOW.plusSeconds(60), answering(201));
        // then
        assertThat(reused.decision().reply()).get().satisfies(reply -> {
            assertThat(reply.commandId()).isEqualTo("cmd-2");
            assertThat(reply.status()).isEqualTo(422);
            assertThat(reply.error()).isEqualTo(ErrorCodes.IDEMPOTENCY_KEY_REUSED);
        });
        assertThat(decidedCommands).isEmpty();
        assertThat(stored.get(SCOPE).requestHash()).isEqualTo("hash-a");
    }

    @Test
    void shouldDecideAnewWhenTheKeyHasExpiredEvenBeforeItIsForgotten() {
        // given
        idempotency.decide(cancel("cmd-1", "hash-a"), NOW, answering(201));
        Instant expired = NOW.plus(IdempotencyRecord.RETENTION);
        // when
        Decided later = idempotency.decide(cancel("cmd-2", "hash-b"), expired, answering(200));
        // then
        assertThat(later.decision().reply()).contains(CommandReply.ok("cmd-2", 200, "body"));
        assertThat(decidedCommands).extracting(InstanceCommand::commandId).containsExactly("cmd-1", "cmd-2");
        assertThat(stored.get(SCOPE)).isEqualTo(new IdempotencyRecord("hash-b", CommandReply.ok("cmd-2", 200, "body"), expired.plus(IdempotencyRecord.RETENTION)));
    }

    @Test
    void shouldNotKeepAnEngineErrorSoTheSameRequestIsDecidedAgain() {
        // given
        idempotency.decide(cancel("cmd-1", "hash-a"), NOW, answering(500));
        // when
        Decided retried = idempotency.decide(cancel("cmd-2", "hash-a"), NOW.plusSeconds(1), answering(201));
        // then
        assertThat(retried.decision().reply()).contains(CommandReply.ok("cmd-2", 201, "body"));
        assertThat(decidedCommands).extracting(InstanceCommand::commandId).containsExactly("cmd-1", "cmd-2");
    }

    @Test
    void shouldForgetOnlyTheRecordItsTimerWasSetFor() {
        // given: the key expired, was used again, and the first record's timer fires late
        idempotency.decide(cancel("cmd-1", "hash-a"), NOW, answering(201));
        Timer firstForget = timers.get(0);
        idempotency.decide(cancel("cmd-2", "hash-b"), NOW.plus(IdempotencyRecord.RETENTION), answering(201));
        // when
        idempotency.forget(firstForget);
        // then
        assertThat(stored.get(SCOPE).requestHash()).isEqualTo("hash-b");
        // when: the second record's own timer fires
        idempotency.forget(timers.get(1));
        // then
        assertThat(stored).doesNotContainKey(SCOPE);
    }

    private static IdempotentCommand cancel(String commandId, String requestHash) {
        return new IdempotentCommand(new IdempotencyKey(SCOPE, requestHash), new CancelInstance(commandId, "default", "instance-1", "onboarding"));
    }

    /** The carried command's decision: an answer with this status, recording that it was decided. */
    private Function<InstanceCommand, Decided> answering(int status) {
        return command -> {
            decidedCommands.add(command);
            CommandReply reply = status < 400 ? CommandReply.ok(command.commandId(), status, "body")
                    : CommandReply.rejected(command.commandId(), status, "some_error", "refused");
            return new Decided(null, Decision.answer(reply));
        };
    }

    private record MapRecords(Map<String, IdempotencyRecord> map) implements IdempotentDecisions.Records {

        @Override
        public IdempotencyRecord get(String scope) {
            return map.get(scope);
        }

        @Override
        public void put(String scope, IdempotencyRecord record) {
            map.put(scope, record);
        }

        @Override
        public void delete(String scope) {
            map.remove(scope);
        }
    }
}
