package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.sopline.engine.processor.CommandProcessor;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.RetireProcess;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.testing.CapturedLog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A process of a deleted workspace is retired: its schedule stops and no start of it is accepted. */
class RetiredProcessTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String OTHER_ID = "01JBBBBBBBBBBBBBBBBBBBBBBB";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    private CommandReply retire(String commandId) {
        return engine.send(new RetireProcess(commandId, WORKSPACE, "nightly"));
    }

    @Test
    void shouldStartNoMoreScheduledInstancesOnceTheProcessIsRetired() {
        // given: an hourly schedule that has fired once
        engine.register("scheduled.yaml");
        engine.advance(Duration.ofHours(1));
        assertThat(engine.followUps()).hasSize(1);

        // when
        CommandReply reply = retire("retire-1");
        engine.advance(Duration.ofHours(1));
        engine.advance(Duration.ofHours(1));
        engine.advance(Duration.ofHours(1));

        // then: the fire due after the retirement is the last, and starts nothing
        assertThat(reply.status()).isEqualTo(200);
        List<Command> written = engine.writtenCommands();
        assertThat(written).filteredOn(StartInstance.class::isInstance).isEmpty();
        assertThat(written).filteredOn(FireTimer.class::isInstance).hasSize(1);
    }

    @Test
    void shouldAnswerNotFoundToAStartOfARetiredProcessWhateverSentIt() {
        // given
        engine.register("scheduled.yaml");
        retire("retire-1");

        // when
        CommandReply latest = engine.start(ID, "nightly", Map.of("region", "emea"));
        CommandReply pinned = engine.send(engine.startCommand(OTHER_ID, "nightly", Map.of("region", "emea"), "1.0"));
        CommandReply scheduled = engine.send(new StartInstance("late-fire", WORKSPACE, OTHER_ID, "nightly", Map.of("region", "emea"), null,
                StartInstance.SCHEDULE, "1.0"));

        // then
        assertThat(List.of(latest, pinned, scheduled)).allSatisfy(reply -> {
            assertThat(reply.status()).isEqualTo(404);
            assertThat(reply.error()).isEqualTo("not_found");
        });
        assertThat(engine.instance(ID)).isNull();
        assertThat(engine.instance(OTHER_ID)).isNull();
    }

    @Test
    void shouldLogAStartWrittenByTheEngineThatIsRefused() {
        // given: a schedule's fire decided just before the retirement, read after it
        engine.register("scheduled.yaml");
        retire("retire-1");
        try (CapturedLog log = CapturedLog.of(CommandProcessor.class)) {
            // when: as the engine writes it, with no sender to answer
            engine.publish(new StartInstance(null, WORKSPACE, OTHER_ID, "nightly", Map.of("region", "emea"), null, StartInstance.SCHEDULE, "1.0"));

            // then
            assertThat(engine.instance(OTHER_ID)).isNull();
            assertThat(log.messagesAtLeast(Level.WARN)).singleElement().asString()
                    .startsWith("A schedule start of process 'nightly' in workspace '" + WORKSPACE + "' was refused: 404 not_found: ");
        }
    }

    @Test
    void shouldAnswerTheSameAndStayRetiredWhenRetiredAgain() {
        // given
        engine.register("scheduled.yaml");
        retire("retire-1");

        // when
        CommandReply again = retire("retire-2");

        // then
        assertThat(again.status()).isEqualTo(200);
        assertThat(engine.start(ID, "nightly", Map.of("region", "emea")).status()).isEqualTo(404);
    }

    @Test
    void shouldStayRetiredWhenAVersionIsRegisteredAfterTheRetirement() {
        // given: a registration that was on its way when the workspace was deleted
        retire("retire-1");

        // when
        engine.register("scheduled.yaml");
        engine.advance(Duration.ofHours(3));

        // then: its first fire finds the mark, starts nothing and sets no next fire
        List<Command> written = engine.writtenCommands();
        assertThat(written).filteredOn(StartInstance.class::isInstance).isEmpty();
        assertThat(written).filteredOn(FireTimer.class::isInstance).hasSize(1);
        assertThat(engine.start(ID, "nightly", Map.of("region", "emea")).status()).isEqualTo(404);
    }
}
