package dev.sopline.engine.processor;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.api.view.ProcessVersions.PublishedVersion;
import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.schemas.definition.ProcessDefinition;
import java.util.Optional;

/**
 * Published versions never change, so a version read once is kept instead of reading its record for every command.
 * Reads of "latest" still go to the store, where a new version appears.
 *
 * <p>Kept by weight, not by count, the least used let go first (Caffeine weighs how often and how lately each was read): a process file may hold 256 KiB, and a workspace that
 * registers many large versions and starts each must not fill the heap of the engine every workspace shares. A version
 * weighs its source (two bytes a character, as a Java string holds it; its parsed model grows with it) plus a fixed
 * share for a small model and the entry.
 */
final class CachedDefinitions implements DefinitionLookup {

    /** Reads one published version, source and all. */
    @FunctionalInterface
    interface VersionReader {
        Optional<PublishedVersion> read(String workspace, String process, String version);
    }

    /** The most the versions kept by one task weigh, in bytes: about 500 small ones, or 7 of 256 KiB. */
    static final long MAX_WEIGHT = 4L * 1024 * 1024;
    static final int ENTRY_WEIGHT = 4 * 1024;

    private record Kept(ProcessDefinition definition, int weight) {}

    private final DefinitionLookup store;
    private final VersionReader reader;
    private final Cache<String, Kept> versions;

    CachedDefinitions(DefinitionLookup store, VersionReader reader) {
        this(store, reader, MAX_WEIGHT);
    }

    CachedDefinitions(DefinitionLookup store, VersionReader reader, long maxWeight) {
        this.store = store;
        this.reader = reader;
        this.versions = Caffeine.newBuilder()
                .maximumWeight(maxWeight)
                .weigher((String key, Kept kept) -> kept.weight())
                // Evicted at once by the stream thread that adds, so the bound holds when the add returns.
                .executor(Runnable::run)
                .build();
    }

    @Override
    public Optional<ProcessVersions> find(String workspace, String process) {
        return store.find(workspace, process);
    }

    @Override
    public Optional<ProcessDefinition> latest(String workspace, String process) {
        return store.latest(workspace, process);
    }

    @Override
    public boolean isRetired(String workspace, String process) {
        return store.isRetired(workspace, process);
    }

    @Override
    public Optional<ProcessDefinition> version(String workspace, String process, String version) {
        String key = workspace + "/" + process + "/" + version;
        Kept kept = versions.getIfPresent(key);
        if (kept != null) {
            return Optional.of(kept.definition());
        }
        Optional<PublishedVersion> found = reader.read(workspace, process, version);
        found.ifPresent(published -> versions.put(key, new Kept(published.definition(), weight(published))));
        return found.map(PublishedVersion::definition);
    }

    /** What the versions kept now weigh, in bytes. */
    long weightKept() {
        versions.cleanUp();
        return versions.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }

    private static int weight(PublishedVersion published) {
        long source = published.source() == null ? 0 : published.source().length();
        return (int) Math.min(Integer.MAX_VALUE, ENTRY_WEIGHT + 2 * source);
    }
}
