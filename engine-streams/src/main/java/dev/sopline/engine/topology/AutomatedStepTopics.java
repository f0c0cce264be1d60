package dev.sopline.engine.topology;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * The automated steps topics of the teams, {@code sop.steps.automated.<namespace>}: created when a process that runs
 * steps of a new namespace is registered, or at the first step of it (a process registered before topics were per
 * team), with the partition count of {@code sop.steps.automated} and the engine's replication factor.
 *
 * <p>Creating a topic blocks the stream thread once per namespace and task, for the time the broker takes (milliseconds);
 * namespaces come and go while the engine runs. A failure is a {@link StreamsException}: the task fails and its
 * transaction is aborted, so no step is written to a topic that does not exist.
 */
public final class AutomatedStepTopics implements AutoCloseable {

    /** The Kafka Streams property that turns creation on; off under the topology test driver, which has no broker. */
    public static final String CREATE_CONFIG = "sop.steps.topics.create";

    private static final long TIMEOUT_SECONDS = 30;

    private final Map<String, Object> adminConfig;
    private final Optional<Short> replication;
    private final Set<String> known = new HashSet<>();
    private Admin admin;
    private Optional<Integer> partitions;

    private AutomatedStepTopics(Map<String, Object> adminConfig, Optional<Short> replication) {
        this.adminConfig = adminConfig;
        this.replication = replication;
    }

    /** Topic creation as the application's config asks, or empty when the topics are left to the operator. */
    public static Optional<AutomatedStepTopics> from(Map<String, Object> appConfigs) {
        if (!Boolean.parseBoolean(String.valueOf(appConfigs.getOrDefault(CREATE_CONFIG, "false")))) {
            return Optional.empty();
        }
        StreamsConfig config = new QuietStreamsConfig(appConfigs);
        int replicationFactor = config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
        Optional<Short> replication = replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor);
        return Optional.of(new AutomatedStepTopics(config.getAdminConfigs("sop-automated-step-topics"), replication));
    }

    /** The topic of the run's namespace, created first if this task has not seen it yet. */
    public String ensureFor(String run) {
        String topic = Topics.automatedStepsFor(run);
        if (known.contains(topic)) {
            return topic;
        }
        try {
            if (admin == null) {
                connect();
                if (known.contains(topic)) {
                    return topic;
                }
            }
            admin.createTopics(List.of(new NewTopic(topic, partitions, replication))).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new StreamsException("Expected to create the automated steps topic " + topic + ", but " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException("Interrupted while creating the automated steps topic " + topic, e);
        } catch (TimeoutException e) {
            throw new StreamsException("Expected to create the automated steps topic " + topic + " within " + TIMEOUT_SECONDS + " s", e);
        }
        known.add(topic);
        return topic;
    }

    /** Once per task: the topics that exist need no creation, and new ones get the partitions of sop.steps.automated. */
    private void connect() throws InterruptedException, ExecutionException, TimeoutException {
        Admin created = Admin.create(adminConfig);
        boolean connected = false;
        try {
            String legacy = Topics.stepReady(StepType.AUTOMATED);
            created.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                    .filter(name -> Topics.AUTOMATED_STEPS.matcher(name).matches()).forEach(known::add);
            partitions = Optional.of(created.describeTopics(List.of(legacy)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(legacy).partitions().size());
            connected = true;
        } finally {
            if (!connected) {
                created.close();
            }
        }
        admin = created;
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
    }

    /** The application's config read again without logging every value, as Kafka Streams did at start. */
    private static final class QuietStreamsConfig extends StreamsConfig {

        QuietStreamsConfig(Map<?, ?> props) {
            super(props, false);
        }
    }
}
