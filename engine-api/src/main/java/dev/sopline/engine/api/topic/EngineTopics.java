package dev.sopline.engine.api.topic;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's topics, and their creation at start when missing. The engine's own partitioned topics (commands,
 * replies, callbacks) get one partition count, which its stores' changelogs take too, so an instance's id names the
 * same partition number on each of them. The public topics others read and write (the step topics,
 * {@code sop.step-results}, {@code sop.events}) get a count of their own: records on them are keyed by instance id as
 * well, but nothing matches their partition numbers with the engine's.
 */
public final class EngineTopics {

    /** How long a topic just created may stay unknown to the broker that answers. */
    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(30);
    private static final Duration RETRY_EVERY = Duration.ofMillis(100);

    /** Commands from gateways and from the engine itself; keyed by instance id, or workspace/process. */
    public static final String COMMANDS = Topics.COMMANDS;
    /** Replies to commands; keyed by command id, read by every gateway. */
    public static final String REPLIES = "sop.replies";
    /** Published process versions; compacted, keyed by workspace/process, read whole by every engine replica. */
    public static final String DEFINITIONS = "sop.definitions";
    /** Owner of each one-shot callback id; compacted, read whole by every engine replica. */
    public static final String CALLBACKS = "sop.callbacks";
    /**
     * The engine's generated secret, when {@code SOP_ENGINE_SECRET} is not set: one partition, compacted so that it
     * never expires; the first record wins.
     */
    public static final String ENGINE_SECRET = "sop.engine-secret";
    /** Workspace tokens, as hashes; compacted, keyed by token id, read whole by every gateway replica. */
    public static final String TOKENS = "sop.tokens";
    /** Outbound webhook subscriptions; compacted, keyed by subscription id, read whole by every gateway replica. */
    public static final String WEBHOOKS = "sop.webhooks";

    private static final Logger LOG = LoggerFactory.getLogger(EngineTopics.class);
    private static final String LOG_APPEND_TIME = "LogAppendTime";
    /** A settings call's own limit, so that none outlives the wait for it and holds up the admin client's close. */
    private static final int TIMEOUT_MS = 30_000;

    private EngineTopics() {}

    /** The replication factor of the topics the platform creates ({@code SOP_KAFKA_REPLICATION_FACTOR}, default 1). */
    public static short replication(Map<String, String> environment) {
        return Short.parseShort(environment.getOrDefault("SOP_KAFKA_REPLICATION_FACTOR", "1"));
    }

    /**
     * @param partitions the engine's own partitioned topics' count
     * @param publicPartitions the public topics' count
     */
    public static List<NewTopic> all(int partitions, int publicPartitions, short replication) {
        List<NewTopic> topics = new ArrayList<>();
        // Stamped by the broker as it appends: the engine decides each command at its record's time (a step's start, its
        // deadline, an instance's end), and results come from workers on hosts whose clocks are not the platform's.
        topics.add(new NewTopic(COMMANDS, partitions, replication)
                .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME)));
        topics.add(new NewTopic(Topics.STEP_RESULTS, publicPartitions, replication));
        topics.add(new NewTopic(Topics.EVENTS, publicPartitions, replication));
        for (StepType type : StepType.values()) {
            topics.add(new NewTopic(Topics.stepReady(type), publicPartitions, replication));
        }
        // The other teams' topics are created as processes need them (AutomatedStepTopics), with the count of this one.
        topics.add(new NewTopic(Topics.automatedSteps(Topics.DEFAULT_NAMESPACE), publicPartitions, replication));
        topics.add(new NewTopic(REPLIES, partitions, replication).configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "3600000")));
        Map<String, String> compacted = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        topics.add(new NewTopic(DEFINITIONS, 1, replication).configs(compacted));
        topics.add(new NewTopic(CALLBACKS, partitions, replication).configs(compacted));
        topics.add(new NewTopic(ENGINE_SECRET, 1, replication).configs(compacted));
        topics.add(new NewTopic(TOKENS, 1, replication).configs(compacted));
        topics.add(new NewTopic(WEBHOOKS, 1, replication).configs(compacted));
        return topics;
    }

    /**
     * The partition Kafka's producer puts a record with this key on, in a topic of {@code partitions} partitions (its
     * default partitioner: murmur2 of the key's UTF-8 bytes). Commands are keyed by instance id, so this is also the
     * partition of an instance's state in the engine's stores.
     */
    public static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /**
     * How many partitions {@code topic} has. A topic created moments ago may not be known yet to the broker that
     * answers (the controller has taken it; the broker's metadata follows a little later): that is asked again for up
     * to 30 s, rather than taken for a missing topic.
     */
    public static int partitions(Admin admin, String topic) {
        long deadline = System.nanoTime() + VISIBLE_WITHIN.toNanos();
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while describing " + topic, e);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException("Expected to describe " + topic + ", but " + e.getMessage(), e);
                }
                pause();
            } catch (TimeoutException e) {
                throw new IllegalStateException("Expected to describe " + topic + ", but " + e.getMessage(), e);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_EVERY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the broker to know a new topic", e);
        }
    }

    /**
     * Creates the topics that do not exist yet ({@link #all}); existing ones keep their partitions and settings, except
     * that a command log created by an earlier release is made to be stamped by the broker ({@link #stampCommandsOnAppend}).
     */
    public static void ensure(Admin admin, int partitions, int publicPartitions, short replication) {
        boolean commandsCreatedNow = create(admin, partitions, publicPartitions, replication).contains(COMMANDS);
        if (!commandsCreatedNow) {
            stampCommandsOnAppend(admin);
        }
    }

    /** The names of the topics created now. */
    private static Set<String> create(Admin admin, int partitions, int publicPartitions, short replication) {
        try {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = all(partitions, publicPartitions, replication).stream().filter(topic -> !existing.contains(topic.name())).toList();
            if (missing.isEmpty()) {
                return Set.of();
            }
            admin.createTopics(missing).values().values().forEach(future -> {
                try {
                    future.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Expected to create the engine's topics, but " + e.getCause().getMessage(), e);
                    }
                } catch (InterruptedException | TimeoutException e) {
                    throw new IllegalStateException("Expected to create the engine's topics within 30 s", e);
                }
            });
            // Created means the controller has them; the clients that start next (Kafka Streams among them, which
            // stops on a source topic it cannot find) ask a broker, whose metadata may still be a moment behind.
            missing.forEach(topic -> partitions(admin, topic.name()));
            return missing.stream().map(NewTopic::name).collect(java.util.stream.Collectors.toSet());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating the engine's topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Expected to list the broker's topics, but " + e.getMessage(), e);
        }
    }

    /**
     * Makes the broker stamp {@code sop.commands} as it appends, as {@link #all} creates it. A command log created before
     * keeps its writers' stamps, on which a worker's clock would move the starts, ends and deadlines its commands decide,
     * and Kafka refuses a record stamped more than an hour ahead. Changed in place, once; without the right to alter a
     * topic's settings the engine still runs, on its writers' clocks, and says how to change it.
     */
    static void stampCommandsOnAppend(Admin admin) {
        ConfigResource commands = new ConfigResource(ConfigResource.Type.TOPIC, COMMANDS);
        try {
            ConfigEntry stamped = admin.describeConfigs(List.of(commands), new DescribeConfigsOptions().timeoutMs(TIMEOUT_MS))
                    .all().get(30, TimeUnit.SECONDS).get(commands).get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
            if (stamped != null && LOG_APPEND_TIME.equals(stamped.value())) {
                return;
            }
            AlterConfigOp appendTime = new AlterConfigOp(new ConfigEntry(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME),
                    AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(commands, List.of(appendTime)), new AlterConfigsOptions().timeoutMs(TIMEOUT_MS))
                    .all().get(30, TimeUnit.SECONDS);
            LOG.info("{} was stamped by its writers ({}); it is now stamped by the broker as it appends ({}={})", COMMANDS,
                    stamped == null ? "unknown" : stamped.value(), TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("{} may keep its writers' timestamps: its {} could not be read or set to {} ({}). A worker whose clock is off then "
                    + "moves the starts, ends and deadlines its results decide. Change it with: kafka-configs.sh --alter --entity-type "
                    + "topics --entity-name {} --add-config {}={}", COMMANDS, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME,
                    e.getCause() == null ? e.toString() : e.getCause().toString(), COMMANDS, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                    LOG_APPEND_TIME);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading the settings of " + COMMANDS, e);
        }
    }
}
