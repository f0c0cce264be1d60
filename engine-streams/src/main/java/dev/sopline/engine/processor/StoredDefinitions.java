package dev.sopline.engine.processor;

import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.state.ProcessVersionStore;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.definition.ProcessDefinition;
import java.util.Optional;

/** Published versions as the global definitions store holds them: one version is read from its own record. */
final class StoredDefinitions implements DefinitionLookup {

    private final ProcessVersionStore store;

    StoredDefinitions(ProcessVersionStore store) {
        this.store = store;
    }

    @Override
    public Optional<ProcessVersions> find(String workspace, String process) {
        return store.find(workspace, process);
    }

    @Override
    public Optional<ProcessDefinition> latest(String workspace, String process) {
        return store.latest(workspace, process).map(ProcessVersions.PublishedVersion::definition);
    }

    @Override
    public boolean isRetired(String workspace, String process) {
        return store.isRetired(workspace, process);
    }

    @Override
    public Optional<ProcessDefinition> version(String workspace, String process, String version) {
        return store.version(workspace, process, version).map(ProcessVersions.PublishedVersion::definition);
    }
}
