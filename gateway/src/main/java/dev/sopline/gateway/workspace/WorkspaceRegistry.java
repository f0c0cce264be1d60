package dev.sopline.gateway.workspace;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.gateway.auth.BootstrapToken;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.store.CompactedTopicRegistry;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Every workspace, live or deleted, from the compacted {@code sop.workspaces} topic that each gateway replica reads
 * whole, like the tokens: a deletion refuses the workspace's tokens on every replica within a poll interval.
 *
 * <p>The gateway creates the topic itself (one partition, compacted, as {@code sop.tokens}): workspaces are the
 * gateway's concern, and the engine needs nothing of them.
 *
 * <p>Names are claimed under this replica's lock. Two replicas creating the same name within the same ~100 ms could
 * both succeed; the workspace is then one workspace with two admin tokens, which the administrator sees in its list.
 */
@Component
public class WorkspaceRegistry extends CompactedTopicRegistry<WorkspaceRecord> {

    public static final String TOPIC = "sop.workspaces";
    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceRegistry.class);

    private final SopProperties properties;

    public WorkspaceRegistry(SopProperties properties) {
        super(properties, TOPIC, WorkspaceRecord.class);
        this.properties = properties;
    }

    @Override
    public void start() {
        ensureTopic(properties.kafka().bootstrapServers(), EngineTopics.replication(System.getenv()));
        super.start();
        if (view.get(BootstrapToken.WORKSPACE).isEmpty()) {
            // The bootstrap token's workspace exists from the first start; recorded so it lists with a creation time.
            view.put(BootstrapToken.WORKSPACE, WorkspaceRecord.created(BootstrapToken.WORKSPACE, Instant.now()));
        }
        view.values().stream().filter(WorkspaceRecord::isDeletionUnfinished).forEach(unfinished -> LOG.warn(
                "Workspace '{}' was deleted on {} but its deletion did not finish: its tokens are refused, yet some of its instances "
                        + "may still run. Call DELETE /workspaces/{} again to finish it.", unfinished.name(), unfinished.deletedAt(),
                unfinished.name()));
    }

    public Optional<WorkspaceRecord> find(String name) {
        return view.get(name);
    }

    /** Whether the workspace was deleted: its tokens give 401 even before each is revoked. */
    public boolean isDeleted(String name) {
        return view.get(name).filter(WorkspaceRecord::isDeleted).isPresent();
    }

    /** The workspaces that are not deleted, by name. */
    public List<WorkspaceRecord> live() {
        return view.values().stream().filter(record -> !record.isDeleted()).sorted(Comparator.comparing(WorkspaceRecord::name)).toList();
    }

    /**
     * Records a new workspace and returns once this replica serves it; empty when the name is taken, by a live or a
     * deleted workspace.
     */
    public synchronized Optional<WorkspaceRecord> create(String name, Instant now) {
        if (view.get(name).isPresent()) {
            return Optional.empty();
        }
        WorkspaceRecord record = WorkspaceRecord.created(name, now);
        view.put(name, record);
        return Optional.of(record);
    }

    public void save(WorkspaceRecord record) {
        view.put(record.name(), record);
    }

    private static void ensureTopic(String bootstrapServers, short replication) {
        try (Admin admin = Admin.create(KafkaClientSecurity.secured(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            if (existing.contains(TOPIC)) {
                return;
            }
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, replication)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Expected to create " + TOPIC + ", but " + e.getCause().getMessage(), e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("Expected to create " + TOPIC + " within 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating " + TOPIC, e);
        }
    }
}
