package dev.sopline.engine.runtime;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.kafka.StableMemberId;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.topology.AutomatedStepTopics;
import dev.sopline.engine.topology.WorkspaceEventTopics;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.schemas.definition.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/**
 * How the engine runs, read from the environment. SDK workers (automated and judgment) and the gateway's replies see the engine's output
 * as it is written (early handoff), so the commit interval does not set their latency; it is how long subscribers
 * to {@code sop.events} and webhook steps wait for what the engine decided. A shorter interval makes
 * those sooner and costs throughput: more transactions for the same work.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param applicationId Kafka Streams application id, shared by every engine replica
 * @param stateDir where local stores live
 * @param partitions partitions of the engine's own topics when it creates them ({@code SOP_ENGINE_PARTITIONS}, default 6,
 *     or one per stream thread for the engine in the gateway's JVM, {@link #forOneReplica}):
 *     the command log, the replies, and so the changelogs of its stores, which take the command log's count. They
 *     bound how many replicas and stream threads share the engine's work, and each transaction of the engine touches
 *     every one of them that its decisions wrote to
 * @param topicPartitions partitions of the public topics the engine creates ({@code SOP_TOPIC_PARTITIONS}, default the
 *     engine's): the step topics, {@code sop.step-results} and {@code sop.events}. They bound how many workers of a
 *     team and how many members of a subscriber's group share the records
 * @param replication replication factor of the engine's topics when it creates them
 * @param standbyReplicas warm copies of each store on other replicas
 * @param commitInterval Kafka Streams commit interval
 * @param streamThreads processing threads of this replica
 * @param advertisedEndpoint {@code host:port} other replicas reach this one's queries at, or null alone
 * @param timerInterval how often due timers are looked for
 * @param engineSecret the key webhook callback ids are derived under ({@code SOP_ENGINE_SECRET}), the same on every
 *     replica; null to use the one the engine generates once and keeps in {@code sop.engine-secret}. Never logged.
 * @param instanceMaxBytes how much data one instance may hold ({@code SOP_INSTANCE_MAX_BYTES}, default 256 KiB): its
 *     inputs, step outputs, trigger and callback payloads as UTF-8 JSON. Its instance record, events and step-ready
 *     records repeat that data, and each must stay under the broker's 1 MiB record limit; at most 384 KiB.
 * @param eventsTopicPerWorkspace whether each workspace's events are also written to its own topic
 *     {@code sop.events.<workspace>} ({@code SOP_EVENTS_TOPIC_PER_WORKSPACE}, default false), so that Kafka ACLs can
 *     give a subscriber one workspace alone
 * @param retention how long a finished instance is kept ({@code SOP_RETENTION}, default 30 days), see {@link #retention}
 * @param resultKeysRequired whether a result from {@code sop.step-results} must carry its step-ready event's key
 *     ({@code SOP_RESULT_KEYS}: {@code optional}, the default, or {@code required}), see {@link #resultKeysRequired(String)}
 * @param unsignedCommandsAccepted whether commands without the platform's signature are taken as what they claim
 *     ({@code SOP_COMMAND_SIGNATURES}: {@code required}, the default, or {@code optional}), see {@link #unsignedCommandsAccepted(String)}
 */
public record EngineSettings(
        String bootstrapServers,
        String applicationId,
        Path stateDir,
        int partitions,
        int topicPartitions,
        short replication,
        int standbyReplicas,
        Duration commitInterval,
        int streamThreads,
        String advertisedEndpoint,
        Duration timerInterval,
        String engineSecret,
        long instanceMaxBytes,
        boolean eventsTopicPerWorkspace,
        Duration retention,
        boolean resultKeysRequired,
        boolean unsignedCommandsAccepted) {

    public static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ofMillis(100);
    /** Partitions of every topic the engine creates, unless told otherwise: room for two to six replicas. */
    public static final int DEFAULT_PARTITIONS = 6;

    public EngineSettings {
        // Threads first: in the gateway's JVM the partitions follow the threads, and the message should name what was set.
        atLeastOne("SOP_ENGINE_THREADS", streamThreads);
        atLeastOne("SOP_ENGINE_PARTITIONS", partitions);
        atLeastOne("SOP_TOPIC_PARTITIONS", topicPartitions);
    }

    private static void atLeastOne(String variable, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("Expected " + variable + " to be at least 1, but it is " + value);
        }
    }

    /** The settings of an engine replica, one of several that share the partitions ({@code EngineApp}). */
    public static EngineSettings fromEnvironment(Map<String, String> env) {
        Path dataDir = Path.of(env.getOrDefault("SOP_DATA_DIR", "./data"));
        return new EngineSettings(
                env.getOrDefault("KAFKA_BOOTSTRAP_SERVERS", "localhost:9092"),
                env.getOrDefault("SOP_ENGINE_APPLICATION_ID", "sop-engine"),
                Path.of(env.getOrDefault("SOP_ENGINE_STATE_DIR", dataDir.resolve("engine").toString())),
                Integer.parseInt(env.getOrDefault("SOP_ENGINE_PARTITIONS", String.valueOf(DEFAULT_PARTITIONS))),
                Integer.parseInt(env.getOrDefault("SOP_TOPIC_PARTITIONS", env.getOrDefault("SOP_ENGINE_PARTITIONS", String.valueOf(DEFAULT_PARTITIONS)))),
                EngineTopics.replication(env),
                Integer.parseInt(env.getOrDefault("SOP_ENGINE_STANDBY_REPLICAS", "0")),
                Duration.ofMillis(Long.parseLong(env.getOrDefault("SOP_ENGINE_COMMIT_INTERVAL_MS", String.valueOf(DEFAULT_COMMIT_INTERVAL.toMillis())))),
                Integer.parseInt(env.getOrDefault("SOP_ENGINE_THREADS", "1")),
                env.get("SOP_ENGINE_ADVERTISED_ENDPOINT"),
                Duration.ofMillis(Long.parseLong(env.getOrDefault("SOP_ENGINE_TIMER_INTERVAL_MS", "100"))),
                env.get("SOP_ENGINE_SECRET"),
                Long.parseLong(env.getOrDefault("SOP_INSTANCE_MAX_BYTES", String.valueOf(InstanceBudget.DEFAULT_MAX_BYTES))),
                Boolean.parseBoolean(env.getOrDefault("SOP_EVENTS_TOPIC_PER_WORKSPACE", "false")),
                retention(env.get("SOP_RETENTION")),
                resultKeysRequired(env.get("SOP_RESULT_KEYS")),
                unsignedCommandsAccepted(env.get("SOP_COMMAND_SIGNATURES")));
    }

    /**
     * The settings of the engine that runs in the gateway's JVM, alone (the standalone). Unless
     * {@code SOP_ENGINE_PARTITIONS} is set, or {@code SOP_ENGINE_ADVERTISED_ENDPOINT} says other replicas share the
     * work, its own topics get one partition per stream thread (one by default): a
     * replica alone gets nothing from more partitions than threads, while each of its tasks commits all of its stores
     * and each of its transactions touches every partition its decisions wrote to (docs/decisions.md, "One replica,
     * one partition"). The public topics keep {@link #DEFAULT_PARTITIONS} (or {@code SOP_TOPIC_PARTITIONS}), so a team
     * can still spread its steps over six workers. The counts apply to topics created from now on: a data directory
     * made before keeps the topics it has.
     */
    public static EngineSettings forOneReplica(Map<String, String> env) {
        if (env.containsKey("SOP_ENGINE_PARTITIONS") || env.containsKey("SOP_ENGINE_ADVERTISED_ENDPOINT")) {
            // Set by the operator, or the engine is told it is one of several replicas: a replica's count.
            return fromEnvironment(env);
        }
        Map<String, String> withDefaults = new HashMap<>(env);
        withDefaults.put("SOP_ENGINE_PARTITIONS", env.getOrDefault("SOP_ENGINE_THREADS", "1"));
        withDefaults.putIfAbsent("SOP_TOPIC_PARTITIONS", String.valueOf(DEFAULT_PARTITIONS));
        return fromEnvironment(withDefaults);
    }

    /**
     * What to tell the operator when the command log has fewer partitions than this engine would have made: topics keep
     * the count of whoever made them first (a standalone makes one), and replicas or threads beyond that count only
     * wait as standbys. Empty when there are as many or more.
     */
    public Optional<String> partitionShortfall(int commandPartitions) {
        if (commandPartitions >= partitions) {
            return Optional.empty();
        }
        return Optional.of(("%s has %d partition(s), fewer than this engine's %d (SOP_ENGINE_PARTITIONS): at most %d engine replica(s) "
                + "and stream thread(s) work at once, the others wait as standbys. The count is fixed when the topics are created")
                .formatted(EngineTopics.COMMANDS, commandPartitions, partitions, commandPartitions));
    }

    /**
     * {@code SOP_RETENTION}: the short form of process files ({@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}) or
     * ISO-8601 ({@code P30D}, {@code PT12H}); unset or blank means 30 days. Anything else stops the start with a message.
     */
    static Duration retention(String text) {
        if (text == null || text.isBlank()) {
            return EngineConfig.DEFAULT_RETENTION;
        }
        Optional<Duration> parsed = Durations.parse(text);
        if (parsed.isEmpty()) {
            try {
                parsed = Optional.of(Duration.parse(text.trim())).filter(duration -> !duration.isNegative() && !duration.isZero());
            } catch (DateTimeParseException notIso) {
                parsed = Optional.empty();
            }
        }
        return parsed.orElseThrow(() -> new IllegalArgumentException(
                "Expected SOP_RETENTION to be a positive duration such as 30d, 12h or P30D, but it is '" + text + "'"));
    }

    /**
     * {@code SOP_RESULT_KEYS}: {@code required} takes a result from {@code sop.step-results} only when it carries the
     * key of the step-ready event it answers (the SDK always does); {@code optional} (the default, and unset) also takes
     * results without one, from workers written before keys existed. A result with a wrong key is never taken.
     */
    static boolean resultKeysRequired(String text) {
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("optional")) {
            return false;
        }
        if (text.trim().equalsIgnoreCase("required")) {
            return true;
        }
        throw new IllegalArgumentException("Expected SOP_RESULT_KEYS to be optional or required, but it is '" + text + "'");
    }

    /**
     * {@code SOP_COMMAND_SIGNATURES}: {@code required} (the default, and unset) takes from the command topic only the
     * platform's signed commands and workers' results; {@code optional} also takes unsigned commands as what they claim
     * to be, for a rolling upgrade from a release whose gateways and engines did not sign (README, "Configuration").
     */
    static boolean unsignedCommandsAccepted(String text) {
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("required")) {
            return false;
        }
        if (text.trim().equalsIgnoreCase("optional")) {
            return true;
        }
        throw new IllegalArgumentException("Expected SOP_COMMAND_SIGNATURES to be required or optional, but it is '" + text + "'");
    }

    public EngineSettings withResultKeysRequired(boolean required) {
        return new EngineSettings(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, engineSecret, instanceMaxBytes, eventsTopicPerWorkspace, retention, required, unsignedCommandsAccepted);
    }

    public EngineSettings withRetention(Duration newRetention) {
        return new EngineSettings(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, engineSecret, instanceMaxBytes, eventsTopicPerWorkspace, newRetention, resultKeysRequired,
                unsignedCommandsAccepted);
    }

    public EngineSettings withStateDir(Path dir) {
        return new EngineSettings(bootstrapServers, applicationId, dir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, engineSecret, instanceMaxBytes, eventsTopicPerWorkspace, retention, resultKeysRequired, unsignedCommandsAccepted);
    }

    public EngineSettings withBootstrapServers(String servers) {
        return new EngineSettings(servers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, engineSecret, instanceMaxBytes, eventsTopicPerWorkspace, retention, resultKeysRequired, unsignedCommandsAccepted);
    }

    public EngineSettings withAdvertisedEndpoint(String endpoint) {
        return new EngineSettings(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, endpoint, timerInterval, engineSecret, instanceMaxBytes, eventsTopicPerWorkspace, retention, resultKeysRequired, unsignedCommandsAccepted);
    }

    public EngineSettings withEngineSecret(String secret) {
        return new EngineSettings(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, secret, instanceMaxBytes, eventsTopicPerWorkspace, retention, resultKeysRequired, unsignedCommandsAccepted);
    }

    public EngineSettings withInstanceMaxBytes(long bytes) {
        return new EngineSettings(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, engineSecret, bytes, eventsTopicPerWorkspace, retention, resultKeysRequired, unsignedCommandsAccepted);
    }

    public EngineSettings withEventsTopicPerWorkspace(boolean perWorkspace) {
        return new EngineSettings(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas, commitInterval,
                streamThreads, advertisedEndpoint, timerInterval, engineSecret, instanceMaxBytes, perWorkspace, retention, resultKeysRequired, unsignedCommandsAccepted);
    }

    /** Shows every setting but the secret. */
    @Override
    public String toString() {
        return "EngineSettings[bootstrapServers=%s, applicationId=%s, stateDir=%s, partitions=%d, topicPartitions=%d, replication=%d, standbyReplicas=%d, "
                .formatted(bootstrapServers, applicationId, stateDir, partitions, topicPartitions, replication, standbyReplicas)
                + "commitInterval=%s, streamThreads=%d, advertisedEndpoint=%s, timerInterval=%s, engineSecret=%s, instanceMaxBytes=%d, "
                .formatted(commitInterval, streamThreads, advertisedEndpoint, timerInterval, engineSecret == null ? "generated" : "set",
                        instanceMaxBytes)
                + "eventsTopicPerWorkspace=%s, retention=%s, resultKeysRequired=%s, unsignedCommandsAccepted=%s]".formatted(eventsTopicPerWorkspace, retention, resultKeysRequired,
                unsignedCommandsAccepted);
    }

    /** The {@code host:port} other replicas reach this one's queries at, when there are several replicas. */
    public java.util.Optional<org.apache.kafka.streams.state.HostInfo> advertisedHost() {
        return java.util.Optional.ofNullable(advertisedEndpoint).filter(endpoint -> !endpoint.isBlank())
                .map(org.apache.kafka.streams.state.HostInfo::buildFromEndpoint);
    }

    /**
     * This replica's static member id in the engine's group, kept in its state directory ({@link StableMemberId});
     * its result relay's is this one with {@code -relay}.
     */
    String memberId() {
        return StableMemberId.keptIn(stateDir.toAbsolutePath().resolve("member-id"), "sop-engine");
    }

    public Properties streamsProperties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval.toMillis());
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, standbyReplicas);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, streamThreads);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replication);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        // A command nobody can read is logged with its topic, partition and offset and skipped; one the engine reads
        // but cannot apply is answered and skipped by the processor, and the processing handler is the net under it.
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, SkippingProcessingExceptionHandler.class);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, ReplyOnlyProductionExceptionHandler.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 16L * 1024 * 1024);
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, RocksDbStoreBudget.class);
        // No linger, one request in flight: a lone record leaves at once, and under load the records written while a
        // request is out go together in the next one, so the broker handles a few large requests, not many small ones.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 0);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1);
        // A record sent right after a commit can reach a partition whose markers for that commit are still being
        // written. A broker of transaction version 2 (Kafka 4) holds the write and checks again itself, after its
        // add.partitions.to.txn.retry.backoff.ms (the platform's brokers: 1 ms); an older one answers
        // CONCURRENT_TRANSACTIONS and the producer retries after this backoff. Writing the markers takes milliseconds;
        // the default 100 ms would hold back the stream thread's output that long.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), 10);
        // The stream thread commits between polls: a poll that waits 100 ms (the default) delays every commit by up to
        // that long. The fetch itself keeps the broker's long poll, which answers as soon as a command arrives.
        props.put(StreamsConfig.POLL_MS_CONFIG, Math.max(1, Math.min(10, commitInterval.toMillis() / 2)));
        // Each task reads one partition of one topic (sop.commands), so there is no other input to wait for and order
        // against. Disabled, the check before each task's turn returns at once; at its default (0) Kafka Streams 4.2
        // formats a message with String.format for every task whose queue is empty, on every pass of the loop.
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // A replica that dies without leaving is noticed after this long (the broker's minimum); its partitions then
        // move to the others.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_500);
        // Static membership: a replica restarted after a crash rejoins as itself at once, instead of waiting out the
        // session of its dead self (Streams appends each stream thread's index).
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), memberId());
        // A dead replica's open transaction blocks the survivors' read_committed reads of its partitions until the
        // broker aborts it: after this long (Streams' default is 10 s), checked as often as the broker's
        // transaction.abort.timed.out.transaction.cleanup.interval.ms (1 s in the embedded broker and compose).
        props.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 5_000);
        if (advertisedEndpoint != null) {
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedEndpoint);
        }
        // Not a Kafka setting: the topology's event processor reads it from the application's config.
        props.put(WorkspaceEventTopics.PER_WORKSPACE_CONFIG, String.valueOf(eventsTopicPerWorkspace));
        // Likewise for the router of automated steps: each team's topic is created when a process first needs it.
        props.put(AutomatedStepTopics.CREATE_CONFIG, "true");
        return KafkaClientSecurity.ofProcess().applyTo(props);
    }
}
