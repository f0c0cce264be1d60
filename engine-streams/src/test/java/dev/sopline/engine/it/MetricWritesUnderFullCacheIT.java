package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.query.EngineQueries;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics' counters and window buckets are rewritten by every instance that starts or ends, and Kafka Streams'
 * record cache folds those writes into one changelog record per key and commit. That holds only while the cache has
 * room: once it is full, a write evicts from its own store's part of the cache, and an evicted bucket is written out
 * at once. A platform that runs for a while fills any cache that keeps instances, so instances are written through and
 * the cache holds only the few keys that are rewritten. Here the cache is 64 KiB, which 2,000 instances fill many
 * times over.
 */
class MetricWritesUnderFullCacheIT {

    /** One automated step: started by a signed command, ended by a worker's unsigned result, as in the platform. */
    private static final String PROCESS = """
            engine: "0.1"
            process:
              name: full-cache
              version: "1.0"
              steps:
                - id: work
                  type: automated
                  run: full.cache
                  outputs:
                    - name: out
            """;
    private static final String WORKSPACE = "full-cache";
    private static final int INSTANCES = 2_000;

    @Test
    void shouldWriteTheMetricsWindowOncePerCommitWhenManyInstancesStartAndEnd(@TempDir Path stateDir) throws Exception {
        EngineSettings settings = SharedKafkaEngine.settings(stateDir, Map.of("SOP_ENGINE_COMMIT_INTERVAL_MS", "1000"));
        Properties props = settings.streamsProperties();
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 64L * 1024);
        int partitions = SharedKafkaEngine.commandPartitions(settings);
        KafkaStreams streams = new KafkaStreams(SharedKafkaEngine.topology(settings), props);
        try (EngineClient client = new EngineClient(settings.bootstrapServers());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers()))) {
            streams.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            assertThat(client.register(WORKSPACE, PROCESS).status()).isEqualTo(201);

            List<String> ids = IntStream.range(0, INSTANCES).mapToObj(i -> UlidCreator.getMonotonicUlid().toString()).toList();
            String windowChangelog = settings.applicationId() + "-" + EngineTopology.WINDOW_STORE + "-changelog";
            long before = endOffsets(admin, windowChangelog, partitions);
            long startedAt = System.nanoTime();

            List<CompletableFuture<CommandReply>> starts = ids.stream().map(id -> client.start(WORKSPACE, id, "full-cache", Map.of())).toList();
            starts.forEach(start -> assertThat(start.orTimeout(60, TimeUnit.SECONDS).join().status()).isEqualTo(201));
            // Each instance ends by a worker's result, unsigned on the command topic as the SDK writes it.
            try (KafkaProducer<String, byte[]> worker = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers()),
                    new StringSerializer(), new ByteArraySerializer())) {
                for (String id : ids) {
                    worker.send(new ProducerRecord<>(EngineTopics.COMMANDS, id, sdkResult(id)));
                }
            }
            EngineQueries queries = new EngineQueries(streams);
            await().atMost(Duration.ofSeconds(60)).until(() -> ids.stream().allMatch(id ->
                    queries.instance(WORKSPACE, id).map(view -> view.state() == InstanceState.COMPLETED).orElse(false)));

            long seconds = Duration.ofNanos(System.nanoTime() - startedAt).toSeconds() + 1;
            long written = endOffsets(admin, windowChangelog, partitions) - before;
            // Per partition and commit (about one a second): the minute bucket and the hour bucket, a second minute if the
            // minute turned, and the commit's marker. With instances in the cache, about 600 records here, growing with
            // the number of instances rather than with the time they took.
            assertThat(written).as("records on the window changelog for %d instances started and completed in about %d s", INSTANCES, seconds)
                    .isLessThanOrEqualTo(4L * partitions * (seconds + 2));
        } finally {
            streams.close(Duration.ofSeconds(10));
        }
    }

    /** A worker's result as the SDK writes it to the command topic: its JSON wrapped as the command, unsigned. */
    private static byte[] sdkResult(String instanceId) {
        byte[] result = Json.mapper().writeValueAsBytes(new StepResult(WORKSPACE, instanceId, "work", 1, Map.of("out", "done"), null, null,
                "worker-1", Instant.now()));
        return ("{\"command\":\"report_step_result\",\"result\":" + new String(result, StandardCharsets.UTF_8) + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static long endOffsets(Admin admin, String topic, int partitions) throws Exception {
        long sum = 0;
        for (int p = 0; p < partitions; p++) {
            TopicPartition partition = new TopicPartition(topic, p);
            sum += admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition).get().offset();
        }
        return sum;
    }
}
