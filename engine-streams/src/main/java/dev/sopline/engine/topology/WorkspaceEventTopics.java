package dev.sopline.engine.topology;

import dev.sopline.schemas.topic.Topics;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * The per-workspace events topics ({@code SOP_EVENTS_TOPIC_PER_WORKSPACE}): {@code sop.events.<workspace>}, created
 * the first time this task writes an event of the workspace, with the partition count of {@code sop.events} so that
 * an instance's events land on the same partition number on both, and the engine's replication factor.
 *
 * <p>Creating a topic blocks the stream thread once per workspace and task, for the time the broker takes to
 * create it (milliseconds); the engine's other topics are created before it starts, but workspaces come and go
 * while it runs. A failure is a {@link StreamsException}, so the task fails and its transaction is aborted rather
 * than the command being answered and skipped with its events half written.
 */
public final class WorkspaceEventTopics implements AutoCloseable {

    /** The Kafka Streams property that turns the copies on ({@code EngineSettings} sets it from the environment). */
    public static final String PER_WORKSPACE_CONFIG = "sop.events.topic.per.workspace";

    /** Workspace names as the gateway accepts them; each is a legal Kafka topic name after {@code sop.events.}. */
    private static final Pattern WORKSPACE = Pattern.compile("[a-z0-9][a-z0-9-]{1,62}");
    private static final long TIMEOUT_SECONDS = 30;

    private final Map<String, Object> adminConfig;
    private final Optional<Short> replication;
    private final Set<String> known = new HashSet<>();
    private Admin admin;
    private Optional<Integer> partitions;

    private WorkspaceEventTopics(Map<String, Object> adminConfig, Optional<Short> replication) {
        this.adminConfig = adminConfig;
        this.replication = replication;
    }

    /** The topics as the application's config asks, or empty when the copies are off. */
    public static Optional<WorkspaceEventTopics> from(Map<String, Object> appConfigs) {
        if (!Boolean.parseBoolean(String.valueOf(appConfigs.getOrDefault(PER_WORKSPACE_CONFIG, "false")))) {
            return Optional.empty();
        }
        StreamsConfig config = new QuietStreamsConfig(appConfigs);
        int replicationFactor = config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
        Optional<Short> replication = replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor);
        return Optional.of(new WorkspaceEventTopics(config.getAdminConfigs("sop-workspace-events-topics"), replication));
    }

    /** Whether a workspace name can name a topic; any workspace the gateway created can. */
    public static boolean isWorkspaceName(String workspace) {
        return workspace != null && WORKSPACE.matcher(workspace).matches();
    }

    /** The workspace's topic, created first if this task has not written to it yet. */
    public String ensure(String workspace) {
        String topic = Topics.workspaceEvents(workspace);
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
                throw new StreamsException("Expected to create the events topic " + topic + ", but " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException("Interrupted while creating the events topic " + topic, e);
        } catch (TimeoutException e) {
            throw new StreamsException("Expected to create the events topic " + topic + " within " + TIMEOUT_SECONDS + " s", e);
        }
        known.add(topic);
        return topic;
    }

    /** Once per task: the topics that exist already need no creation, and new ones get the partitions of sop.events. */
    private void connect() throws InterruptedException, ExecutionException, TimeoutException {
        Admin created = Admin.create(adminConfig);
        boolean connected = false;
        try {
            String prefix = Topics.workspaceEvents("");
            created.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream().filter(name -> name.startsWith(prefix))
                    .forEach(known::add);
            partitions = Optional.of(created.describeTopics(List.of(Topics.EVENTS)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(Topics.EVENTS).partitions().size());
            connected = true;
        } finally {
            if (!connected) {
                created.close();
            }
        }
        admin = created;
    }

    /** The application's config read again without logging every value, as Kafka Streams did at start. */
    private static final class QuietStreamsConfig extends StreamsConfig {

        QuietStreamsConfig(Map<?, ?> props) {
            super(props, false);
        }
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
