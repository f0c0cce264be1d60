package dev.sopline.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The floor: what Kafka itself costs with the same settings the engine uses (idempotent clients with no linger, one
 * request in flight and a short retry backoff, exactly-once transactions, read-committed consumers), on the same broker.
 */
final class KafkaFloor {

    private final String bootstrap;

    KafkaFloor(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /**
     * Request and reply through a transactional consume-transform-produce server, one request at a time: produce,
     * consume, produce back, consume. {@code commitInterval} zero commits each record; otherwise the server commits
     * on that interval, as Kafka Streams does.
     */
    Latencies roundTrip(int requests, Duration commitInterval) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String requestTopic = "floor.req." + suffix;
        String replyTopic = "floor.resp." + suffix;
        createTopics(List.of(requestTopic, replyTopic));
        AtomicBoolean running = new AtomicBoolean(true);
        Thread server = new Thread(() -> serve(requestTopic, replyTopic, commitInterval, running), "floor-server");
        server.start();
        Latencies latencies = new Latencies();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(null), new StringSerializer(), new StringSerializer());
             KafkaConsumer<String, String> replies = new KafkaConsumer<>(consumerProps(null), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(replyTopic, 0);
            replies.assign(List.of(partition));
            replies.seekToEnd(List.of(partition));
            replies.position(partition);
            for (int i = -20; i < requests; i++) {
                String id = "r" + i;
                long started = System.nanoTime();
                producer.send(new ProducerRecord<>(requestTopic, id, id));
                boolean answered = false;
                while (!answered) {
                    for (ConsumerRecord<String, String> record : replies.poll(Duration.ofMillis(100))) {
                        answered |= record.key().equals(id);
                    }
                }
                if (i >= 0) {
                    latencies.record(System.nanoTime() - started);
                }
            }
        } finally {
            running.set(false);
            server.join(10_000);
        }
        return latencies;
    }

    private void serve(String requestTopic, String replyTopic, Duration commitInterval, AtomicBoolean running) {
        String group = "floor-server-" + requestTopic;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps("floor-" + requestTopic), new StringSerializer(), new StringSerializer());
             KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps(group), new StringDeserializer(), new StringDeserializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(requestTopic));
            long lastCommit = System.nanoTime();
            boolean open = false;
            Map<TopicPartition, OffsetAndMetadata> offsets = new java.util.HashMap<>();
            while (running.get()) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(commitInterval.isZero() ? 50 : 1));
                for (ConsumerRecord<String, String> record : records) {
                    if (!open) {
                        producer.beginTransaction();
                        open = true;
                    }
                    producer.send(new ProducerRecord<>(replyTopic, record.key(), record.value()));
                    offsets.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
                    if (commitInterval.isZero()) {
                        producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                        producer.commitTransaction();
                        offsets.clear();
                        open = false;
                    }
                }
                if (open && System.nanoTime() - lastCommit >= commitInterval.toNanos()) {
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                    producer.commitTransaction();
                    offsets.clear();
                    open = false;
                    lastCommit = System.nanoTime();
                }
            }
        }
    }

    /** Messages per second through three transactional consume-transform-produce hops, committing on {@code commitInterval}. */
    double threeHopThroughput(int messages, Duration commitInterval) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        List<String> topics = List.of("hop0." + suffix, "hop1." + suffix, "hop2." + suffix, "hop3." + suffix);
        createTopics(topics);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> hops = new ArrayList<>();
        Duration interval = commitInterval.isZero() ? Duration.ofMillis(1) : commitInterval;
        for (int i = 0; i < 3; i++) {
            String from = topics.get(i);
            String to = topics.get(i + 1);
            Thread hop = new Thread(() -> forward(from, to, interval, running), "hop-" + i);
            hop.start();
            hops.add(hop);
        }
        AtomicLong received = new AtomicLong();
        long started;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(null), new StringSerializer(), new StringSerializer());
             KafkaConsumer<String, String> sink = new KafkaConsumer<>(consumerProps(null), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition last = new TopicPartition(topics.get(3), 0);
            sink.assign(List.of(last));
            sink.seekToBeginning(List.of(last));
            Thread.sleep(3_000); // let the hops join their groups before the clock starts
            started = System.nanoTime();
            for (int i = 0; i < messages; i++) {
                producer.send(new ProducerRecord<>(topics.get(0), "k" + (i % 64), "m" + i));
            }
            producer.flush();
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (received.get() < messages && System.nanoTime() < deadline) {
                received.addAndGet(sink.poll(Duration.ofMillis(100)).count());
            }
        } finally {
            running.set(false);
            for (Thread hop : hops) {
                hop.join(10_000);
            }
        }
        return received.get() / ((System.nanoTime() - started) / 1e9);
    }

    private void forward(String from, String to, Duration commitInterval, AtomicBoolean running) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps("hop-" + from), new StringSerializer(), new StringSerializer());
             KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps("hop-" + from), new StringDeserializer(), new StringDeserializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(from));
            long lastCommit = System.nanoTime();
            boolean open = false;
            Map<TopicPartition, OffsetAndMetadata> offsets = new java.util.HashMap<>();
            while (running.get()) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(5))) {
                    if (!open) {
                        producer.beginTransaction();
                        open = true;
                    }
                    producer.send(new ProducerRecord<>(to, record.key(), record.value()));
                    offsets.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
                }
                if (open && System.nanoTime() - lastCommit >= commitInterval.toNanos()) {
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                    producer.commitTransaction();
                    offsets.clear();
                    open = false;
                    lastCommit = System.nanoTime();
                }
            }
        }
    }

    private void createTopics(List<String> names) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(names.stream().map(name -> new NewTopic(name, 1, (short) 1)).toList()).all().get();
        }
    }

    private Properties producerProps(String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 10);
        if (transactionalId != null) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return props;
    }

    private Properties consumerProps(String group) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        }
        return props;
    }
}
