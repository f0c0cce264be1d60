package dev.sopline.engine.runtime;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer lag of the worker groups ({@code sop.engine.worker.lag}, tag {@code group}): for every consumer group with
 * committed offsets on a step-ready topic ({@code sop.steps.*}), how many step-ready records it has not consumed yet.
 * Read with an admin client every {@link #REFRESH}, off the stream threads; a scrape reads the last figures.
 */
final class WorkerLag implements AutoCloseable {

    static final String METER = "sop.engine.worker.lag";
    static final Duration REFRESH = Duration.ofSeconds(15);

    private static final Logger LOG = LoggerFactory.getLogger(WorkerLag.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<String> STEP_TOPICS = Arrays.stream(StepType.values()).map(Topics::stepReady).collect(Collectors.toSet());

    private final Admin admin;
    private final MultiGauge gauge;
    private final ScheduledExecutorService refresher;

    private WorkerLag(Admin admin, MultiGauge gauge, ScheduledExecutorService refresher) {
        this.admin = admin;
        this.gauge = gauge;
        this.refresher = refresher;
    }

    static WorkerLag start(String bootstrapServers, MeterRegistry registry) {
        Admin admin = Admin.create(KafkaClientSecurity.secured(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis())));
        MultiGauge gauge = MultiGauge.builder(METER)
                .description("Step-ready records a worker group has not consumed yet").register(registry);
        ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "engine-worker-lag");
            thread.setDaemon(true);
            return thread;
        });
        WorkerLag lag = new WorkerLag(admin, gauge, refresher);
        refresher.scheduleWithFixedDelay(lag::refresh, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        return lag;
    }

    private void refresh() {
        try {
            Map<String, Long> lagByGroup = read();
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            lagByGroup.forEach((group, lag) -> rows.add(MultiGauge.Row.of(Tags.of("group", group), lag)));
            gauge.register(rows, true);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debug("Could not read the worker groups' lag: {}", e.toString());
        }
    }

    private Map<String, Long> read() throws Exception {
        Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
        for (GroupListing group : admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group.groupId())
                    .partitionsToOffsetAndMetadata().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, Long> onStepTopics = new HashMap<>();
            offsets.forEach((partition, offset) -> {
                if (offset != null && STEP_TOPICS.contains(partition.topic())) {
                    onStepTopics.put(partition, offset.offset());
                }
            });
            if (!onStepTopics.isEmpty()) {
                committed.put(group.groupId(), onStepTopics);
            }
        }
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        committed.values().forEach(partitions -> partitions.keySet().forEach(partition -> ends.put(partition, OffsetSpec.latest())));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> latest = ends.isEmpty() ? Map.of()
                : admin.listOffsets(ends).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<String, Long> lagByGroup = new HashMap<>();
        committed.forEach((group, partitions) -> lagByGroup.put(group, partitions.entrySet().stream()
                .mapToLong(entry -> Math.max(0, latest.get(entry.getKey()).offset() - entry.getValue()))
                .sum()));
        return lagByGroup;
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        gauge.register(List.of(), true);
        admin.close(Duration.ofSeconds(1));
    }
}
