package dev.sopline.engine.topology;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.ReportStepResult;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the command topic, which teams' SDK workers may write their results to: a record signed by the platform
 * ({@link CommandSignature}) is taken as whatever command it is; an unsigned one only as a worker's result, with no
 * more trust than one copied from {@code sop.step-results} (its result key is checked, never the gateway's word that a
 * token was). Anything else unsigned, a start, a cancel or a registration a worker wrote, is refused: the
 * deserialization handler logs it with its place in the log and the engine goes on.
 *
 * <p>{@code SOP_COMMAND_SIGNATURES=optional} takes unsigned commands too, for a rolling upgrade from a release whose
 * gateways did not sign: until every gateway signs and the commands they wrote before are decided.
 */
public final class VerifiedCommands implements Deserializer<Command> {

    private final Deserializer<Command> records = new RecordSerde<>(Command.class).deserializer();
    private final CommandSignature signature;
    private final boolean unsignedAccepted;

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
        if (command instanceof ReportStepResult report) {
            return report.senderChecked() ? new ReportStepResult(report.result()) : report;
        }
        throw new SerializationException("Refused an unsigned " + command.getClass().getSimpleName() + " on " + topic
                + ": only the platform's signed commands and workers' results are taken from it");
    }

    @Override
    public Command deserialize(String topic, byte[] bytes) {
        return deserialize(topic, null, bytes);
    }
}
