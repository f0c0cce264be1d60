package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.processor.WaitingStarts;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.instance.InstanceState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A start can reach a replica before the registration it follows: the replica that took the registration has replied,
 * and the definition is still on its way to this one's global store. The start waits for it, for a bounded time.
 */
class StartBeforeDefinitionTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final Map<String, Object> INPUTS = Map.of("title", "t");

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldStartTheInstanceWhenTheDefinitionArrivesAfterTheStart() {
        // given a start for a process this replica has not received yet
        StartInstance start = engine.startCommand(ID, "two-step", INPUTS, "1.0");
        engine.publish(start);
        assertThat(engine.reply(start.commandId())).as("no 404 while the definition may be on its way").isEmpty();

        // when the definition arrives
        engine.register("two-step.yaml");
        engine.advance(Duration.ofMillis(100));

        // then
        CommandReply reply = engine.reply(start.commandId()).orElseThrow();
        assertThat(reply.status()).isEqualTo(201);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.WAITING);
        assertThat(engine.instance(ID).version()).isEqualTo("1.0");
        assertThat(waitingStarts()).isZero();
    }

    @Test
    void shouldAnswerNotFoundOnceTheWaitIsOverWhenTheProcessNeverArrives() {
        // given
        StartInstance start = engine.startCommand(ID, "nowhere", Map.of(), null);
        engine.publish(start);

        // when the wait is almost over, nothing is answered yet
        engine.advance(WaitingStarts.LIMIT.minusMillis(200));
        assertThat(engine.reply(start.commandId())).isEmpty();

        // then once it is over, the sender hears 404 and nothing was created
        engine.advance(Duration.ofMillis(200));
        CommandReply reply = engine.reply(start.commandId()).orElseThrow();
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.error()).isEqualTo("not_found");
        assertThat(engine.instance(ID)).isNull();
        assertThat(waitingStarts()).isZero();
    }

    @Test
    void shouldStartTheVersionTheSenderSawRatherThanTheOneBefore() {
        // given version 1.0 is here, and the sender saw 1.1 published
        engine.register("two-step.yaml");
        StartInstance start = engine.startCommand(ID, "two-step", INPUTS, "1.1");
        engine.publish(start);
        engine.advance(Duration.ofMillis(300));
        assertThat(engine.reply(start.commandId())).as("1.0 is not what the sender saw").isEmpty();

        // when 1.1 arrives
        engine.register("two-step-1.1.yaml", twoStepVersion("1.1"));
        engine.advance(Duration.ofMillis(100));

        // then
        assertThat(engine.reply(start.commandId()).orElseThrow().status()).isEqualTo(201);
        assertThat(engine.instance(ID).version()).isEqualTo("1.1");
    }

    @Test
    void shouldStartTheVersionTheSenderSawAtOnceEvenWhenANewerOneIsHere() {
        // given 1.1 was registered after the sender saw 1.0
        engine.register("two-step.yaml");
        engine.register("two-step-1.1.yaml", twoStepVersion("1.1"));

        // when
        CommandReply reply = engine.send(engine.startCommand(ID, "two-step", INPUTS, "1.0"));

        // then the version is the one the start names, whenever the engine decides (a replay decides the same)
        assertThat(reply.status()).isEqualTo(201);
        assertThat(engine.instance(ID).version()).isEqualTo("1.0");
    }

    @Test
    void shouldAnswerNotFoundRatherThanStartAnOlderVersionWhenTheSeenVersionNeverArrives() {
        // given 1.0 is here, and the sender saw 1.1 published
        engine.register("two-step.yaml");
        StartInstance start = engine.startCommand(ID, "two-step", INPUTS, "1.1");
        engine.publish(start);

        // when the wait is over without 1.1
        engine.advance(WaitingStarts.LIMIT.plusMillis(100));

        // then
        CommandReply reply = engine.reply(start.commandId()).orElseThrow();
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.message()).contains("1.1");
        assertThat(engine.instance(ID)).isNull();
        assertThat(waitingStarts()).isZero();
    }

    @Test
    void shouldKeepTheIdempotencyKeysAnswerForAStartThatWaited() {
        // given an idempotent start that waits for its definition
        IdempotencyKey key = new IdempotencyKey("default|tok_1|key-1", "hash-a");
        StartInstance first = engine.startCommand(ID, "two-step", INPUTS, "1.0");
        engine.publish(new IdempotentCommand(key, first));
        engine.register("two-step.yaml");
        engine.advance(Duration.ofMillis(100));
        assertThat(engine.reply(first.commandId()).orElseThrow().status()).isEqualTo(201);

        // when the client repeats it, with the new instance id the gateway mints for a retry
        StartInstance repeat = engine.startCommand("01JBBBBBBBBBBBBBBBBBBBBBBB", "two-step", INPUTS, "1.0");
        CommandReply again = engine.send(new IdempotentCommand(key, repeat));

        // then it gets the first answer
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.body()).isEqualTo(engine.reply(first.commandId()).orElseThrow().body());
        assertThat(engine.instance("01JBBBBBBBBBBBBBBBBBBBBBBB")).isNull();
    }

    private long waitingStarts() {
        try (var all = engine.store(EngineTopology.WAITING_STARTS_STORE).all()) {
            long count = 0;
            while (all.hasNext()) {
                all.next();
                count++;
            }
            return count;
        }
    }

    private static byte[] twoStepVersion(String version) {
        String yaml = new String(EngineHarness.resource("two-step.yaml"), StandardCharsets.UTF_8);
        return yaml.replace("version: \"1.0\"", "version: \"" + version + "\"").getBytes(StandardCharsets.UTF_8);
    }
}
