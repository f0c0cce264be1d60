package dev.sopline.engine.runtime;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.serde.SignedCommandSerializer;
import dev.sopline.schemas.command.Command;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.processor.CommandLog;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The engine's {@link CommandLog}: one idempotent producer, outside any transaction, shared by the stream threads. Its
 * records go to the partition of their key as the topology's own would (the default partitioner over the same key
 * bytes), so each command is read by the task whose store holds what it names.
 */
final class ProducedCommandLog implements CommandLog, AutoCloseable {

    private final KafkaProducer<String, Command> producer;

    /** @param signature signs each command, as the platform's ({@link SignedCommandSerializer}) */
    ProducedCommandLog(EngineSettings settings, CommandSignature signature) {
        this.producer = new KafkaProducer<>(properties(settings), new StringSerializer(), new SignedCommandSerializer(signature));
    }

    static Properties properties(EngineSettings settings) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, settings.memberId() + "-own-commands");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // Punctuation runs on a stream thread: a broker out of reach holds it this long at most, and the commands not
        // written are written again at a later punctuation.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        return KafkaClientSecurity.ofProcess().applyTo(props);
    }

    @Override
    public void append(Command command, Instant at, Consumer<Exception> failed) {
        producer.send(new ProducerRecord<>(EngineTopics.COMMANDS, null, at.toEpochMilli(), command.key(), command), (metadata, error) -> {
            if (error != null) {
                failed.accept(error);
            }
        });
    }

    /** Sends what is buffered, waiting for it at most {@code timeout}. */
    void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
