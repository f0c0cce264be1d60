package dev.sopline.engine.api.query;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import dev.sopline.engine.api.view.WindowBucket;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads through the query endpoints of every engine replica, for a gateway that runs no engine of its own. Any
 * replica that can serve routes a read to the owner of the data (or, while the owner is gone, to a standby copy), so
 * a read is served as long as one replica is. The replicas are the configured addresses and, from then on, those the
 * group's metadata names ({@code /query/replicas}, looked up every few seconds). A replica that did not answer is
 * asked last for a while, so reads go straight to one that answers instead of waiting on one that is gone.
 */
public final class ReplicaSetEngineReader implements EngineReader, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSetEngineReader.class);
    private static final Duration SET_ASIDE = Duration.ofSeconds(2);
    private static final Duration DISCOVERY_INTERVAL = Duration.ofSeconds(5);
    /** About 2 s in all: the standby-to-active switch takes a second or two on a busy machine. */
    private static final int ROUNDS = 8;
    private static final Duration BETWEEN_ROUNDS = Duration.ofMillis(250);

    /** By {@code host:port}, so a configured address and the same replica named by the metadata are one replica. */
    private final Map<String, Replica> replicas = new ConcurrentHashMap<>();
    private final List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ScheduledExecutorService discovery;
    private final Supplier<EngineQueryKey> key;

    /** @param key shown to the replicas ({@link EngineQueryKey}); asked for at each query, so it may be learnt late */
    public ReplicaSetEngineReader(Collection<String> baseUrls, Supplier<EngineQueryKey> key) {
        this.key = key;
        if (baseUrls.isEmpty()) {
            throw new IllegalArgumentException("Expected at least one engine replica's query URL");
        }
        baseUrls.forEach(this::add);
        discovery = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "engine-replica-discovery");
            thread.setDaemon(true);
            return thread;
        });
        discovery.scheduleWithFixedDelay(this::discover, 0, DISCOVERY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Splits a comma-separated list of query URLs, ignoring blanks. */
    public static List<String> parse(String commaSeparated) {
        List<String> urls = new ArrayList<>();
        if (commaSeparated != null) {
            for (String url : commaSeparated.split(",")) {
                if (!url.isBlank()) {
                    urls.add(url.strip());
                }
            }
        }
        return urls;
    }

    /** The replicas known now, configured and discovered, as base URLs. */
    public List<String> baseUrls() {
        return order.stream().map(key -> replicas.get(key).reader.baseUrl()).toList();
    }

    private void add(String baseUrl) {
        URI uri = URI.create(baseUrl);
        String replica = uri.getHost() + ":" + uri.getPort();
        if (replicas.putIfAbsent(replica, new Replica(new RemoteEngineReader(baseUrl, key))) == null) {
            order.add(replica);
            LOG.info("Reading engine state through replica {}", baseUrl);
        }
    }

    private void discover() {
        try {
            for (String endpoint : ask(RemoteEngineReader::replicaEndpoints)) {
                add("http://" + endpoint);
            }
        } catch (RuntimeException e) {
            LOG.debug("No replica named the others this time: {}", e.getMessage());
        }
    }

    /**
     * Asks the replicas that answered lately first, then those set aside; the first answer wins. When none answers,
     * asks again a few times in the next moments: while the group moves a lost replica's partitions, the one that
     * takes them over cannot answer for them for a moment, between its standby copy becoming the active one.
     */
    private <T> T ask(Function<RemoteEngineReader, T> read) {
        StateUnavailableException failure = new StateUnavailableException(
                "Expected one of the engine replicas " + baseUrls() + " to answer, but none did");
        for (int round = 0; round < ROUNDS; round++) {
            if (round > 0 && !pause()) {
                break;
            }
            for (Replica replica : inAskingOrder()) {
                try {
                    return read.apply(replica.reader);
                } catch (StateUnavailableException unavailable) {
                    replica.setAsideUntil = System.nanoTime() + SET_ASIDE.toNanos();
                    if (failure.getSuppressed().length < ROUNDS * 2) {
                        failure.addSuppressed(unavailable);
                    }
                }
            }
        }
        throw failure;
    }

    private List<Replica> inAskingOrder() {
        long now = System.nanoTime();
        List<Replica> first = new ArrayList<>();
        List<Replica> last = new ArrayList<>();
        for (String key : order) {
            Replica replica = replicas.get(key);
            (replica.setAsideUntil - now > 0 ? last : first).add(replica);
        }
        first.addAll(last);
        return first;
    }

    private static boolean pause() {
        try {
            Thread.sleep(BETWEEN_ROUNDS.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public Optional<InstanceView> instance(String workspace, String instanceId) {
        return instanceAnswer(workspace, instanceId).map(Answer::value);
    }

    @Override
    public Optional<Answer<InstanceView>> instanceAnswer(String workspace, String instanceId) {
        return ask(reader -> reader.instanceAnswer(workspace, instanceId));
    }

    @Override
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        return ask(reader -> reader.instances(workspace, filter, cursor, limit));
    }

    @Override
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        return ask(reader -> reader.pendingSteps(workspace, filter, cursor, limit));
    }

    @Override
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit) {
        return ask(reader -> reader.history(workspace, instanceId, cursor, limit));
    }

    @Override
    public WorkspaceCounts counts(String workspace) {
        return ask(reader -> reader.counts(workspace));
    }

    @Override
    public WindowBucket window(String workspace, Instant from, Instant to) {
        return ask(reader -> reader.window(workspace, from, to));
    }

    @Override
    public Optional<CallbackOwner> callbackOwner(String callbackId) {
        return ask(reader -> reader.callbackOwner(callbackId));
    }

    @Override
    public Optional<ProcessVersions> process(String workspace, String name) {
        return ask(reader -> reader.process(workspace, name));
    }

    @Override
    public Optional<ProcessVersions.PublishedVersion> latestVersion(String workspace, String name) {
        return ask(reader -> reader.latestVersion(workspace, name));
    }

    @Override
    public List<ProcessVersions> processes(String workspace) {
        return ask(reader -> reader.processes(workspace));
    }

    @Override
    public void close() {
        discovery.shutdownNow();
    }

    private static final class Replica {
        private final RemoteEngineReader reader;
        private volatile long setAsideUntil = System.nanoTime();

        private Replica(RemoteEngineReader reader) {
            this.reader = reader;
        }
    }
}
