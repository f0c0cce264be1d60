package dev.sopline.benchmark;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.worker.SopWorker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The engine under load: instances of a three-step automated process, started on the command topic and resolved by
 * SDK workers in this JVM; completion seen on {@code sop.events} as a subscriber sees it. The instances alternate
 * between two teams' copies of that process ({@code bench.*} and {@code bench-b.*} runs), so their steps go to two
 * topics read by two worker groups, as many independent teams share one engine.
 */
final class EngineRun implements AutoCloseable {

    static final String PROCESS_NAME = "bench-three-steps";
    /** The SDK workers' group of team {@code bench}; later workers of the benchmark join it to take up its step topic where it was left. */
    static final String WORKER_GROUP = "bench-workers";
    static final String TEAM = "bench";
    /** The second team: the same process under another name, its runs in namespace {@code bench-b}, read by a group of its own. */
    static final String OTHER_TEAM = "bench-b";
    static final String OTHER_PROCESS_NAME = "bench-three-steps-b";
    static final String OTHER_WORKER_GROUP = "bench-b-workers";
    private static final String PROCESS_VERSION = "1.0";
    static final String PROCESS = """
            engine: "0.1"
            process:
              name: bench-three-steps
              version: "1.0"
              inputs:
                - name: n
                  type: integer
                  required: true
              steps:
                - id: a
                  type: automated
                  run: bench.a
                  inputs:
                    n: "${inputs.n}"
                  outputs:
                    - name: out
                - id: b
                  type: automated
                  run: bench.b
                  inputs:
                    previous: "${steps.a.outputs.out}"
                  outputs:
                    - name: out
                - id: c
                  type: automated
                  run: bench.c
                  inputs:
                    previous: "${steps.b.outputs.out}"
                  outputs:
                    - name: out
            """;
    static final String OTHER_PROCESS = PROCESS.replace("name: " + PROCESS_NAME, "name: " + OTHER_PROCESS_NAME)
            .replace("run: " + TEAM + ".", "run: " + OTHER_TEAM + ".");

    static final String PARALLEL_PROCESS_NAME = "bench-parallel-block";
    /**
     * The same three no-op steps, with the first two side by side in a parallel block (engine 0.2) and the third
     * joining them: what a block's fan-out and join cost against the three-step chain.
     */
    static final String PARALLEL_PROCESS = """
            engine: "0.2"
            process:
              name: bench-parallel-block
              version: "1.0"
              inputs:
                - name: n
                  type: integer
                  required: true
              steps:
                - parallel:
                    id: both
                    branches:
                      - id: left
                        steps:
                          - id: a
                            type: automated
                            run: bench.a
                            inputs:
                              n: "${inputs.n}"
                            outputs:
                              - name: out
                      - id: right
                        steps:
                          - id: b
                            type: automated
                            run: bench.b
                            inputs:
                              n: "${inputs.n}"
                            outputs:
                              - name: out
                - id: c
                  type: automated
                  run: bench.c
                  inputs:
                    left: "${steps.a.outputs.out}"
                    right: "${steps.b.outputs.out}"
                  outputs:
                    - name: out
            """;

    private final String workspace = "default";
    private final KafkaProducer<String, byte[]> producer;
    private final RecordSerde<Command> commands = new RecordSerde<>(Command.class);
    /** Starts written straight to the command topic are signed as the platform's (the engine refuses unsigned ones). */
    private final CommandSignature signature;
    private final Map<String, Long> startedAt = new ConcurrentHashMap<>();
    private final Map<String, String> processOf = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong alternation = new java.util.concurrent.atomic.AtomicLong();
    /** When each completion reached a {@code sop.events} subscriber: once the engine's transaction committed. */
    private final CompletionFeed committed;
    private final Map<String, Long> completedAt;
    /** When the engine wrote each completion, before its transaction committed: what {@code GET /sop/instances/:id} shows. */
    private CompletionFeed decided;
    private final Map<String, long[]> stepReadyAt = new ConcurrentHashMap<>();
    private final String bootstrap;
    private final List<SopWorker> workers;

    EngineRun(String bootstrap, int workerCount, int concurrency) throws InterruptedException {
        this.bootstrap = bootstrap;
        this.signature = CommandSignature.of(EngineSecret.resolve(System.getenv("SOP_ENGINE_SECRET"), bootstrap));
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 1), new StringSerializer(), new ByteArraySerializer());
        committed = new CompletionFeed(bootstrap, "read_committed", startedAt::containsKey, "bench-events");
        completedAt = committed.completedAt();
        workers = new java.util.ArrayList<>();
        // The workers are shared out between the teams: as many consumers and step threads in all as with one team.
        for (int i = 0; i < Math.max(2, workerCount); i++) {
            boolean first = i % 2 == 0;
            workers.add(worker(first ? TEAM : OTHER_TEAM, first ? WORKER_GROUP : OTHER_WORKER_GROUP, concurrency));
        }
    }

    /** A worker of one team: it reads that team's topic alone. */
    private SopWorker worker(String team, String group, int concurrency) {
        return SopWorker.builder().kafka(bootstrap).group(group).concurrency(concurrency).readPreviousTopic(false)
                .handle(team + ".a", step -> handled(step.instanceId(), 0))
                .handle(team + ".b", step -> handled(step.instanceId(), 1))
                .handle(team + ".c", step -> handled(step.instanceId(), 2))
                .start();
    }

    private Map<String, Object> handled(String instanceId, int step) {
        stepReadyAt.computeIfAbsent(instanceId, ignored -> new long[3])[step] = System.nanoTime();
        return Map.of("out", "v" + step);
    }

    /**
     * From now on, also records when the engine decides each completion, before its commit. Started only for the
     * instances run one at a time, so that a second reader of every event does not load the batch's measurement.
     */
    void followDecisions() throws InterruptedException {
        decided = new CompletionFeed(bootstrap, "read_uncommitted", startedAt::containsKey, "bench-decisions");
    }

    /** Starts an instance of the three-step process, of each team in turn. */
    String startAlternating(int n) {
        return start(alternation.getAndIncrement() % 2 == 0 ? PROCESS_NAME : OTHER_PROCESS_NAME, n);
    }

    /** Starts an instance of {@code process}, one of {@link #PROCESS_NAME}, {@link #OTHER_PROCESS_NAME} and {@link #PARALLEL_PROCESS_NAME}. */
    String start(String process, int n) {
        String id = UlidCreator.getMonotonicUlid().toString();
        processOf.put(id, process);
        StartInstance start = new StartInstance(null, workspace, id, process, Map.of("n", n), null, StartInstance.API,
                PROCESS_VERSION);
        startedAt.put(id, System.nanoTime());
        byte[] value = commands.serializer().serialize(EngineTopics.COMMANDS, start);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(EngineTopics.COMMANDS, id, value);
        signature.sign(record.headers(), value);
        producer.send(record);
        return id;
    }

    void flush() {
        producer.flush();
    }

    /** Waits, without spinning, until every one of {@code ids} has completed or {@code limit} has passed. */
    void awaitAll(List<String> ids, Duration limit) throws InterruptedException {
        committed.awaitAll(ids, System.nanoTime() + limit.toNanos());
    }

    long completedCount(List<String> ids) {
        return ids.stream().filter(completedAt::containsKey).count();
    }

    /** Completed instances of {@code ids} per process, so that one sees both teams' ran. */
    Map<String, Long> completedByProcess(List<String> ids) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        ids.stream().filter(completedAt::containsKey).forEach(id -> counts.merge(processOf.get(id), 1L, Long::sum));
        return counts;
    }

    long lastCompletion(List<String> ids) {
        return ids.stream().mapToLong(id -> completedAt.getOrDefault(id, 0L)).max().orElse(0);
    }

    /** Start to completed as a subscriber to {@code sop.events} sees it: once the engine's transaction committed. */
    Latencies startToCompleted(List<String> ids) {
        return since(startedAt, completedAt, ids);
    }

    /**
     * Start to completed as the engine decided it: when the completion was written, which is also when the instance
     * shows {@code completed} through {@code GET /sop/instances/:id}; the commit follows within one commit interval.
     */
    Latencies startToDecided(List<String> ids) {
        return since(startedAt, decided == null ? Map.of() : decided.completedAt(), ids);
    }

    private static Latencies since(Map<String, Long> from, Map<String, Long> to, List<String> ids) {
        Latencies latencies = new Latencies();
        ids.stream().filter(id -> to.containsKey(id) && from.containsKey(id)).forEach(id -> latencies.record(to.get(id) - from.get(id)));
        return latencies;
    }

    /** Step-ready to next step-ready, as the workers see them: a step's result reaching the engine, and the next step reaching a worker. */
    Latencies handoffs(List<String> ids) {
        Latencies latencies = new Latencies();
        for (String id : ids) {
            long[] ready = stepReadyAt.get(id);
            if (ready != null && ready[0] > 0 && ready[1] > 0 && ready[2] > 0) {
                latencies.record(ready[1] - ready[0]);
                latencies.record(ready[2] - ready[1]);
            }
        }
        return latencies;
    }

    @Override
    public void close() throws InterruptedException {
        workers.forEach(worker -> worker.close(Duration.ofSeconds(5)));
        committed.close();
        if (decided != null) {
            decided.close();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
