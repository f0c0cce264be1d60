package dev.sopline.engine.topology;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.event.StepResult;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the command topic, which teams' SDK workers may write their results to: a record signed by the platform
 * ({@link CommandSignature}) is taken as whatever command it is; an unsigned one only as a worker's result that names
 * its instance and step, with no more trust than one copied from {@code sop.step-results} (its result key is checked,
 * never the gateway's word that a token was). Anything else unsigned, a start, a cancel or a registration a worker
 * wrote, is refused: read as no command at all, which the processor passes over. Refusals are logged one line per
 * 1,000, without a stack trace, since a writer of the topic can send such records as fast as it likes. A record that
 * is not a command at all is still the deserialization handler's, as before.
 *
 * <p>{@code SOP_COMMAND_SIGNATURES=optional} takes unsigned commands too, for a rolling upgrade from a release whose
 * gateways and engines did not sign: until every one of them is upgraded and the commands they wrote are decided.
 */
public final class VerifiedCommands implements Deserializer<Command> {

    private static final Logger LOG = LoggerFactory.getLogger(VerifiedCommands.class);

    private final Deserializer<Command> records = new RecordSerde<>(Command.class).deserializer();
    private final CommandSignature signature;
    private final boolean unsignedAccepted;
    private final AtomicLong refused = new AtomicLong();

    public VerifiedCommands(CommandSignature signature, boolean unsignedAccepted) {
        this.signature = signature;
        this.unsignedAccepted = unsignedAccepted;
    }

    @Override
    public Command deserialize(String topic, Headers headers, byte[] bytes) {
        Command command = records.deserialize(topic, bytes);
        if (command == null || unsignedAccepted || signature.signed(headers, bytes)) {
            return command;
        }
        if (command instanceof ReportStepResult report && namesItsStep(report.result())) {
            return report.senderChecked() ? new ReportStepResult(report.result()) : report;
        }
        long count = refused.incrementAndGet();
        if (count % 1_000 == 1) {
            boolean signedOtherwise = headers != null && headers.lastHeader(CommandSignature.HEADER) != null;
            LOG.warn("Refused a {} on {}: {} ({} refused so far). Only the platform's signed commands and workers' results are "
                            + "taken from it; a gateway or engine under another engine secret, or of a release that did not sign, is "
                            + "refused too", command.getClass().getSimpleName(), topic,
                    signedOtherwise ? "its signature does not verify" : "it is unsigned", count);
        }
        return null;
    }

    private static boolean namesItsStep(StepResult result) {
        return result != null && result.instanceId() != null && result.stepId() != null;
    }

    @Override
    public Command deserialize(String topic, byte[] bytes) {
        return deserialize(topic, null, bytes);
    }
}
