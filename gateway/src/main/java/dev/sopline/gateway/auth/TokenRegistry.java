package dev.sopline.gateway.auth;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.store.CompactedTopicRegistry;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Every token of every workspace, from the compacted {@code sop.tokens} topic that each gateway replica reads whole,
 * so a revocation takes effect on every replica well within a second. Only hashes are stored.
 */
@Component
public class TokenRegistry extends CompactedTopicRegistry<TokenRecord> {

    private final Map<String, String> idByHash = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastUsed = new ConcurrentHashMap<>();

    public TokenRegistry(SopProperties properties) {
        super(properties, EngineTopics.TOKENS, TokenRecord.class);
    }

    @Override
    protected void changed(TokenRecord previous, TokenRecord current) {
        if (previous != null) {
            idByHash.remove(previous.hash());
            if (current == null) {
                lastUsed.remove(previous.id());
            }
        }
        if (current != null) {
            idByHash.put(current.hash(), current.id());
        }
    }

    /** The usable token with this secret, compared in constant time against its stored hash. */
    public Optional<TokenRecord> authenticate(String presented, Instant now) {
        // Hashed once per request: the same hash finds the record and is compared with it.
        byte[] hash = TokenHashing.sha256(presented);
        String id = idByHash.get(HexFormat.of().formatHex(hash));
        Optional<TokenRecord> record = id == null ? Optional.empty() : view.get(id);
        if (record.isEmpty() || !TokenHashing.matchesHash(hash, record.get().hash()) || !record.get().isUsableAt(now)) {
            return Optional.empty();
        }
        lastUsed.put(record.get().id(), now);
        return record;
    }

    public List<TokenRecord> active(String workspace, Instant now) {
        return view.values().stream()
                .filter(record -> workspace.equals(record.workspace()) && record.isUsableAt(now))
                .sorted(Comparator.comparing(TokenRecord::id))
                .toList();
    }

    /** How many token records the workspace has, those revoked or expired and not yet forgotten included. */
    public int held(String workspace) {
        return (int) view.values().stream().filter(record -> workspace.equals(record.workspace())).count();
    }

    public Optional<TokenRecord> find(String workspace, String id) {
        return view.get(id).filter(record -> workspace.equals(record.workspace()));
    }

    /**
     * Deletes the records of tokens that stopped working before {@code cutoff}, but a bootstrap token's: a token
     * without a record is refused as a revoked one is, and the records would otherwise grow with every token a
     * workspace ever made and let go. A revoked bootstrap token is kept so that a restart does not make a new one.
     *
     * @return how many were deleted
     */
    public int forgetEndedBefore(Instant cutoff, Instant now) {
        List<TokenRecord> ended = view.values().stream()
                .filter(record -> !BootstrapToken.isBootstrap(record))
                .filter(record -> record.endedAt(now) != null && record.endedAt(now).isBefore(cutoff))
                .toList();
        view.deleteAll(ended.stream().map(TokenRecord::id).toList());
        return ended.size();
    }

    /** Every token record, revoked and expired ones included. */
    public List<TokenRecord> all() {
        return List.copyOf(view.values());
    }

    /** When this replica last saw the token used; each replica knows its own requests only. */
    public Optional<Instant> lastUsedAt(String id) {
        return Optional.ofNullable(lastUsed.get(id));
    }

    /** Stores the record and returns once this replica serves it. */
    public void save(TokenRecord record) {
        view.put(record.id(), record);
    }
}
