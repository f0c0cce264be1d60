package dev.sopline.gateway.workers;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.topic.Topics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The worker groups of automated steps, read from the broker: every consumer group with a member assigned to, or
 * offsets committed on, a {@code sop.steps.automated*} topic. A description is cached for {@link #CACHE_FOR}, so
 * many readers (the API, a Prometheus scrape) cost the broker one round of Admin calls. A group stays listed for
 * {@link #REMEMBER_FOR} after its last member left, so a crashed team shows up as a group without members and with
 * growing lag rather than disappearing.
 *
 * <p>Each group also has the gauges {@code sop.workers.lag}, {@code sop.workers.in.flight} and {@code sop.workers.members},
 * tagged with the group.
 */
@Component
public class WorkerGroups implements AutoCloseable {

    static final Duration CACHE_FOR = Duration.ofSeconds(5);
    static final Duration REMEMBER_FOR = Duration.ofMinutes(5);
    private static final long TIMEOUT_SECONDS = 10;

    private final String bootstrapServers;
    private final MeterRegistry meters;
    private final Clock clock;
    private final Map<String, WorkerGroup> seen = new ConcurrentHashMap<>();
    private Admin admin;
    private Instant describedAt = Instant.EPOCH;

    @Autowired
    public WorkerGroups(SopProperties properties, MeterRegistry meters) {
        this(properties.kafka().bootstrapServers(), meters, Clock.systemUTC());
    }

    WorkerGroups(String bootstrapServers, MeterRegistry meters, Clock clock) {
        this.bootstrapServers = bootstrapServers;
        this.meters = meters;
        this.clock = clock;
    }

    /** The groups seen within the last {@link #REMEMBER_FOR}, by name. */
    public synchronized List<WorkerGroup> list() {
        Instant now = clock.instant();
        if (Duration.between(describedAt, now).compareTo(CACHE_FOR) >= 0) {
            describe(now);
            describedAt = now;
        }
        seen.values().removeIf(group -> group.lastSeen().plus(REMEMBER_FOR).isBefore(now));
        return seen.values().stream().sorted(Comparator.comparing(WorkerGroup::group)).toList();
    }

    private void describe(Instant now) {
        try {
            Admin client = admin();
            List<String> groups = client.listGroups().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).toList();
            if (groups.isEmpty()) {
                return;
            }
            Map<String, ConsumerGroupDescription> descriptions = client.describeConsumerGroups(groups).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (String group : groups) {
                ConsumerGroupDescription description = descriptions.get(group);
                Map<TopicPartition, OffsetAndMetadata> committed = stepOffsets(client.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                List<WorkerGroup.Member> members = description == null ? List.of() : members(description.members());
                Set<TopicPartition> assigned = new java.util.HashSet<>();
                if (description != null) {
                    description.members().forEach(member -> member.assignment().topicPartitions().stream()
                            .filter(partition -> isStepTopic(partition.topic())).forEach(assigned::add));
                }
                Set<String> topics = new TreeSet<>();
                committed.keySet().forEach(partition -> topics.add(partition.topic()));
                assigned.forEach(partition -> topics.add(partition.topic()));
                if (topics.isEmpty()) {
                    continue; // not a worker group: the engine's own, a subscriber of sop.events, ...
                }
                WorkerGroup previous = seen.get(group);
                Instant lastSeen = !members.isEmpty() || previous == null ? now : previous.lastSeen();
                WorkerGroup described = new WorkerGroup(group, namespaces(topics), members, lag(client, committed, assigned),
                        InFlightFigures.sum(committed, now), lastSeen);
                if (previous == null) {
                    registerGauges(group);
                }
                seen.put(group, described);
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // The last description stays until the broker answers again.
            org.slf4j.LoggerFactory.getLogger(WorkerGroups.class).warn("Describing the worker groups failed: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean isStepTopic(String topic) {
        return Topics.AUTOMATED_STEPS.matcher(topic).matches();
    }

    private static Map<TopicPartition, OffsetAndMetadata> stepOffsets(Map<TopicPartition, OffsetAndMetadata> committed) {
        return committed.entrySet().stream().filter(entry -> entry.getValue() != null && isStepTopic(entry.getKey().topic()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static List<WorkerGroup.Member> members(Collection<MemberDescription> members) {
        return members.stream().map(member -> new WorkerGroup.Member(member.clientId(), member.host(),
                (int) member.assignment().topicPartitions().stream().filter(partition -> isStepTopic(partition.topic())).count()))
                .sorted(Comparator.comparing(WorkerGroup.Member::clientId)).toList();
    }

    /** The namespace of each team topic; {@code sop.steps.automated} itself, the topic of earlier releases, names none. */
    private static List<String> namespaces(Set<String> topics) {
        String prefix = Topics.automatedSteps("");
        return topics.stream().filter(topic -> topic.startsWith(prefix)).map(topic -> topic.substring(prefix.length())).toList();
    }

    /**
     * End offsets minus committed ones, over the partitions the group committed on or is assigned; a partition with no
     * commit yet counts from its earliest offset, where the SDK's workers start. A group that commits the offset after its
     * last record rather than its consumer's position (the SDK's workers commit the position once idle) is one
     * transaction marker short of the end: an overestimate, never an underestimate.
     */
    private static long lag(Admin client, Map<TopicPartition, OffsetAndMetadata> committed, Set<TopicPartition> assigned)
            throws java.util.concurrent.ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
        Set<TopicPartition> partitions = new java.util.HashSet<>(committed.keySet());
        partitions.addAll(assigned);
        if (partitions.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = offsets(client, partitions, OffsetSpec.latest());
        Set<TopicPartition> uncommitted = partitions.stream().filter(partition -> !committed.containsKey(partition)).collect(Collectors.toSet());
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts = uncommitted.isEmpty() ? Map.of()
                : offsets(client, uncommitted, OffsetSpec.earliest());
        long lag = 0;
        for (TopicPartition partition : partitions) {
            long start = committed.containsKey(partition) ? committed.get(partition).offset() : starts.get(partition).offset();
            lag += Math.max(0, ends.get(partition).offset() - start);
        }
        return lag;
    }

    private static Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets(Admin client, Set<TopicPartition> partitions, OffsetSpec spec)
            throws java.util.concurrent.ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        return client.listOffsets(request).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Read from the cache, so that a scrape never waits on the broker more than once per {@link #CACHE_FOR}. */
    private void registerGauges(String group) {
        Gauge.builder("sop.workers.lag", this, groups -> groups.current(group).map(WorkerGroup::lag).orElse(0L))
                .description("Automated steps written to a worker group's topics and not yet done by it").tag("group", group)
                .register(meters);
        Gauge.builder("sop.workers.in.flight", this, groups -> groups.current(group).map(WorkerGroup::inFlight).orElse(0L))
                .description("Automated steps a worker group's members run now").tag("group", group)
                .register(meters);
        Gauge.builder("sop.workers.members", this, groups -> groups.current(group).map(described -> described.members().size()).orElse(0))
                .description("Live members of a worker group").tag("group", group)
                .register(meters);
    }

    private java.util.Optional<WorkerGroup> current(String group) {
        list();
        return java.util.Optional.ofNullable(seen.get(group));
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(KafkaClientSecurity.secured(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)));
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
