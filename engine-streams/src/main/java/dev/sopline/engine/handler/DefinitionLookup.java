package dev.sopline.engine.handler;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.definition.ProcessDefinition;
import java.util.Optional;

/** Reads published process versions; in the topology, the global store every engine replica holds. */
@FunctionalInterface
public interface DefinitionLookup {

    Optional<ProcessVersions> find(String workspace, String process);

    default Optional<ProcessDefinition> latest(String workspace, String process) {
        return find(workspace, process).flatMap(ProcessVersions::latest).map(ProcessVersions.PublishedVersion::definition);
    }

    /** Whether the process was retired (its workspace deleted); stores answer this with one read. */
    default boolean isRetired(String workspace, String process) {
        return find(workspace, process).map(ProcessVersions::retired).orElse(false);
    }

    default Optional<ProcessDefinition> version(String workspace, String process, String version) {
        return find(workspace, process).flatMap(versions -> versions.version(version)).map(ProcessVersions.PublishedVersion::definition);
    }
}
