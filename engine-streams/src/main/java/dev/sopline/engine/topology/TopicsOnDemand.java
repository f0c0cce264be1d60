package dev.sopline.engine.topology;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * A family of topics the engine creates while it runs, the first time a task writes to one of them (a workspace's
 * events, a team's automated steps), with the partition count of the family's template topic (so a record keyed by
 * instance lands on the same partition number as on the template) and the engine's replication factor.
 *
 * <p>Creating a topic blocks the stream thread once per topic and task, for the time the broker takes (milliseconds).
 * A failure is a {@link StreamsException}: the task fails and its transaction is aborted, so nothing is answered with
 * its records half written or written to a topic that does not exist.
 */
final class TopicsOnDemand implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 30;

    private final String family;
    private final Predicate<String> inFamily;
    private final String template;
    private final Map<String, Object> adminConfig;
    private final Optional<Short> replication;
    private final Set<String> known = new HashSet<>();
    private Admin admin;
    private Optional<Integer> partitions;

    /**
     * @param family how error messages name the topics, e.g. "events topic"
     * @param inFamily which existing topic names belong to the family, so they are never created again
     * @param template the topic whose partition count new topics take
     */
    TopicsOnDemand(String family, Predicate<String> inFamily, String template, Map<String, Object> appConfigs, String clientId) {
        this.family = family;
        this.inFamily = inFamily;
        this.template = template;
        StreamsConfig config = new QuietStreamsConfig(appConfigs);
        int replicationFactor = config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
        this.replication = replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor);
        this.adminConfig = config.getAdminConfigs(clientId);
    }

    /** The topic, created first if this task has not written to it yet. */
    String ensure(String topic) {
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
                throw new StreamsException("Expected to create the " + family + " " + topic + ", but " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException("Interrupted while creating the " + family + " " + topic, e);
        } catch (TimeoutException e) {
            throw new StreamsException("Expected to create the " + family + " " + topic + " within " + TIMEOUT_SECONDS + " s", e);
        } catch (KafkaException e) {
            // The admin client could not even be made (no broker address resolves): the same failure as any other.
            throw new StreamsException("Expected to create the " + family + " " + topic + ", but " + e.getMessage(), e);
        }
        known.add(topic);
        return topic;
    }

    /** Once per task: the family's topics that exist need no creation, and new ones get the template's partitions. */
    private void connect() throws InterruptedException, ExecutionException, TimeoutException {
        Admin created = Admin.create(adminConfig);
        boolean connected = false;
        try {
            created.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream().filter(inFamily).forEach(known::add);
            partitions = Optional.of(created.describeTopics(List.of(template)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(template).partitions().size());
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
