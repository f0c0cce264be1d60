package dev.sopline.gateway.webhook;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.kafka.StableMemberId;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import dev.sopline.gateway.config.StopsConcurrently;
import org.springframework.stereotype.Component;

/**
 * Reads {@code sop.events} and hands each state change to the {@link SubscriptionDeliveries} of every subscription
 * of its workspace, which send it (signed, named by {@code X-SOP-Delivery}, retried) on threads of their own. It
 * reads in a consumer group of its own, apart from the engine, so that gateway replicas share the deliveries and a
 * slow receiver never holds the engine up. Handing over never blocks, so this thread polls every
 * {@link #POLL_TIMEOUT} whatever the receivers do, far inside {@code max.poll.interval.ms}.
 *
 * <p><b>At least once.</b> An offset is committed only once every delivery of its record has finished, delivered or
 * given up, and so have those of every earlier record of its partition ({@link CommittableOffsets}). A gateway that
 * stops, or loses a partition, reads the unfinished records again and sends their deliveries again, including ones
 * that had already arrived: receivers drop repeats by {@code X-SOP-Delivery}. The cost is that one receiver's retries
 * hold back the commit of its partition for every subscription, which only widens what is sent again after a stop.
 * The one loss: a subscription whose receiver stays away long enough to fill its queue loses its oldest waiting
 * deliveries ({@link SubscriptionDeliveries}), so that memory stays bounded.
 *
 * <p><b>Supervised.</b> A record that is not a state change event is skipped with a WARN naming its topic,
 * partition and offset. Any other failure of the loop is logged, and the consumer is closed and made again after
 * {@link #RESTART_BACKOFF}, continuing from the committed offsets: the loop never ends while the gateway runs (only
 * an {@link Error} would end it). {@link #isHealthy()} tells whether it is reading.
 */
@Component
public class WebhookDispatcher implements StopsConcurrently {

    static final String GROUP = "sop-webhook-delivery";
    /** The file of the gateway's data directory that keeps its static member id in {@link #GROUP}. */
    static final String MEMBER_ID_FILE = "webhook-member-id";
    static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    static final Duration RESTART_BACKOFF = Duration.ofSeconds(1);
    /** A loop that has not come back from a poll for this long is stuck; far above any poll's length. */
    static final Duration STALE_AFTER = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);

    private final Subscriptions subscriptions;
    private final DeliveryAttempt attempts;
    private final Supplier<Consumer<String, byte[]>> consumers;
    private final Clock clock = Clock.systemUTC();
    private final CommittableOffsets offsets = new CommittableOffsets();

    private volatile boolean running;
    private volatile boolean polling;
    private volatile long lastPolledAt;
    private volatile Consumer<String, byte[]> consumer;
    private CountDownLatch stopped;
    private WebhookDeliveries deliveries;
    private Thread thread;

    @Autowired
    public WebhookDispatcher(SopProperties properties, WebhookRegistry registry, WebhookSender sender) {
        this(registry, sender, consumersOf(consumerConfig(properties)));
    }

    private static Supplier<Consumer<String, byte[]>> consumersOf(Map<String, Object> config) {
        return () -> new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** @param consumers makes a consumer of the dispatcher's group: at start, and again after each failure */
    WebhookDispatcher(Subscriptions subscriptions, DeliveryAttempt attempts, Supplier<Consumer<String, byte[]>> consumers) {
        this.subscriptions = subscriptions;
        this.attempts = attempts;
        this.consumers = consumers;
    }

    /**
     * True while the dispatcher reads {@code sop.events}: false before it starts and after it stops, while its consumer
     * is made again after a failure, and once it has not come back from a poll for {@link #STALE_AFTER}. For the
     * gateway's health, which is to answer DOWN while it is false (CONTRACT section 8). Receivers that fail do not make
     * it false: they delay only their own subscriptions.
     */
    public boolean isHealthy() {
        return polling && clock.millis() - lastPolledAt < STALE_AFTER.toMillis();
    }

    @Override
    public void start() {
        running = true;
        stopped = new CountDownLatch(1);
        deliveries = new WebhookDeliveries(subscriptions::byId, attempts);
        thread = new Thread(this::superviseReading, "webhook-dispatcher");
        thread.setDaemon(true);
        thread.start();
    }

    private void superviseReading() {
        while (running) {
            try {
                read();
            } catch (WakeupException e) {
                // stop() woke the consumer.
            } catch (RuntimeException e) {
                if (running) {
                    LOG.error("Webhook dispatcher failed reading {}; reading again in {} ms", Topics.EVENTS, RESTART_BACKOFF.toMillis(), e);
                }
            } finally {
                polling = false;
                offsets.forgetAll();
            }
            awaitStop(RESTART_BACKOFF);
        }
    }

    private void read() {
        Consumer<String, byte[]> opened = consumers.get();
        try {
            consumer = opened;
            opened.subscribe(List.of(Topics.EVENTS), new CommitBeforeRevoke(opened));
            lastPolledAt = clock.millis();
            polling = true;
            while (running) {
                pollAndHandOver(opened);
                commit(opened);
            }
        } finally {
            // What is finished is committed in the loop; leaving the group is a courtesy that must not hold up a stop
            // (right after a broker restart it can wait the whole default 30 s on the group coordinator).
            // It leaves as a static member too (Kafka's default keeps one until its session ends): a gateway stopped on
            // purpose may not come back, and the others should deliver its partitions' events at once.
            opened.close(CloseOptions.timeout(CLOSE_TIMEOUT).withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        }
    }

    static Map<String, Object> consumerConfig(SopProperties properties) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                // A new group starts with the events to come: the state changes of before have no subscribers.
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"));
        if (properties.runsEngineHere()) {
            // A gateway restarted on its data directory after a crash is the same member and delivers the events of its
            // partitions at once; a new member would wait for its dead self's session to end (45 s). Only where an
            // engine runs here: its state makes the directory this process's alone, while gateways that read through
            // query URLs may share one (a volume for the bootstrap token), and two members under one id fence each other.
            config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, StableMemberId.keptIn(properties.dataDir().resolve(MEMBER_ID_FILE), "sop-webhooks"));
        }
        return KafkaClientSecurity.secured(config);
    }

    private void pollAndHandOver(Consumer<String, byte[]> from) {
        try {
            from.poll(POLL_TIMEOUT).forEach(this::handOver);
        } catch (RecordDeserializationException e) {
            // Plain bytes do not fail to deserialize; a record broken on the broker's side is still skipped, not retried forever.
            LOG.warn("Skipping an unreadable record of {} partition {} at offset {}", e.topicPartition().topic(), e.topicPartition().partition(),
                    e.offset(), e);
            from.seek(e.topicPartition(), e.offset() + 1);
        }
        lastPolledAt = clock.millis();
    }

    private void handOver(ConsumerRecord<String, byte[]> record) {
        if (subscriptions.isEmpty()) {
            offsets.read(record, 0);
            return;
        }
        CloudEvent event;
        List<WebhookSubscription> subscribed;
        try {
            event = StateChangeEvents.read(record.value());
            subscribed = subscriptions.of(StateChangeEvents.workspaceOf(event));
        } catch (RuntimeException e) {
            LOG.warn("Skipping an unreadable event of {} partition {} at offset {}: {}", record.topic(), record.partition(), record.offset(),
                    e.toString());
            offsets.read(record, 0);
            return;
        }
        Runnable finished = offsets.read(record, subscribed.size());
        for (WebhookSubscription subscription : subscribed) {
            deliveries.add(subscription, new Delivery(event.getId() + ":" + subscription.id(), record.value(), finished));
        }
    }

    private void commit(Consumer<String, byte[]> to) {
        Map<TopicPartition, OffsetAndMetadata> committable = offsets.toCommit();
        if (committable.isEmpty()) {
            return;
        }
        try {
            to.commitSync(committable);
            offsets.committed(committable);
        } catch (CommitFailedException | RebalanceInProgressException e) {
            LOG.debug("Committing webhook delivery offsets waits for the group's rebalance: {}", e.getMessage());
        }
    }

    private void awaitStop(Duration atMost) {
        try {
            stopped.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void stop() {
        running = false;
        stopped.countDown();
        Consumer<String, byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deliveries.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the webhook registry, which it reads subscriptions from. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 3000;
    }

    /** Commits what is finished of the partitions leaving, so the next reader sends again as little as it can. */
    private final class CommitBeforeRevoke implements ConsumerRebalanceListener {

        private final Consumer<String, byte[]> consumer;

        CommitBeforeRevoke(Consumer<String, byte[]> consumer) {
            this.consumer = consumer;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            commit(consumer);
            offsets.forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            offsets.forget(partitions);
        }
    }
}
