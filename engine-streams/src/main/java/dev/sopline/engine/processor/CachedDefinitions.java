package dev.sopline.engine.processor;

import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.definition.ProcessDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Published versions never change, so a version read once is kept (up to a bound, least recently used out) instead of
 * reading its record for every command. Reads of "latest" still go to the store, where a new
 * version appears.
 */
final class CachedDefinitions implements DefinitionLookup {

    private static final int MAX_VERSIONS = 1_000;

    private final DefinitionLookup store;
    private final Map<String, ProcessDefinition> versions = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ProcessDefinition> eldest) {
            return size() > MAX_VERSIONS;
        }
    };

    CachedDefinitions(DefinitionLookup store) {
        this.store = store;
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
        ProcessDefinition cached = versions.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<ProcessDefinition> found = store.version(workspace, process, version);
        found.ifPresent(definition -> versions.put(key, definition));
        return found;
    }
}
