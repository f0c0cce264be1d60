package dev.sopline.engine.topology;

import dev.sopline.schemas.topic.Topics;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The per-workspace events topics ({@code SOP_EVENTS_TOPIC_PER_WORKSPACE}): {@code sop.events.<workspace>}, created
 * the first time this task writes an event of the workspace, with the partition count of {@code sop.events} so that
 * an instance's events land on the same partition number on both ({@link TopicsOnDemand}). The engine's other topics
 * are created before it starts, but workspaces come and go while it runs.
 */
public final class WorkspaceEventTopics implements AutoCloseable {

    /** The Kafka Streams property that turns the copies on ({@code EngineSettings} sets it from the environment). */
    public static final String PER_WORKSPACE_CONFIG = "sop.events.topic.per.workspace";

    /** Workspace names as the gateway accepts them; each is a legal Kafka topic name after {@code sop.events.}. */
    private static final Pattern WORKSPACE = Pattern.compile("[a-z0-9][a-z0-9-]{1,62}");

    private final TopicsOnDemand topics;

    private WorkspaceEventTopics(TopicsOnDemand topics) {
        this.topics = topics;
    }

    /** The topics as the application's config asks, or empty when the copies are off. */
    public static Optional<WorkspaceEventTopics> from(Map<String, Object> appConfigs) {
        if (!Boolean.parseBoolean(String.valueOf(appConfigs.getOrDefault(PER_WORKSPACE_CONFIG, "false")))) {
            return Optional.empty();
        }
        String prefix = Topics.workspaceEvents("");
        return Optional.of(new WorkspaceEventTopics(new TopicsOnDemand("events topic", name -> name.startsWith(prefix), Topics.EVENTS,
                appConfigs, "sop-workspace-events-topics")));
    }

    /** Whether a workspace name can name a topic; any workspace the gateway created can. */
    public static boolean isWorkspaceName(String workspace) {
        return workspace != null && WORKSPACE.matcher(workspace).matches();
    }

    /** The workspace's topic, created first if this task has not written to it yet. */
    public String ensure(String workspace) {
        return topics.ensure(Topics.workspaceEvents(workspace));
    }

    @Override
    public void close() {
        topics.close();
    }
}
