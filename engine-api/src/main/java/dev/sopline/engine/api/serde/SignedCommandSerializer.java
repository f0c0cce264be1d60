package dev.sopline.engine.api.serde;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.schemas.command.Command;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a command as the engine's record ({@link RecordSerde}) and signs it ({@link CommandSignature}): the serializer
 * of every writer of the command topic that is the platform (the gateway, the engine's own commands).
 */
public final class SignedCommandSerializer implements Serializer<Command> {

    private final Serializer<Command> records = new RecordSerde<>(Command.class).serializer();
    private final CommandSignature signature;

    public SignedCommandSerializer(CommandSignature signature) {
        this.signature = signature;
    }

    @Override
    public byte[] serialize(String topic, Headers headers, Command command) {
        byte[] bytes = records.serialize(topic, command);
        if (bytes != null) {
            signature.sign(headers, bytes);
        }
        return bytes;
    }

    /** Never called by Kafka's clients: without headers the signature would be lost, and the engine would refuse the command. */
    @Override
    public byte[] serialize(String topic, Command command) {
        throw new UnsupportedOperationException("Expected a command to be written with headers, which carry its signature");
    }
}
