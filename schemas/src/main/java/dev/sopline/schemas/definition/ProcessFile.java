package dev.sopline.schemas.definition;

/**
 * A whole process file: the wire-format version of the file and the definition it carries.
 *
 * @param engine wire-format version, for example {@code "0.1"}; only major version {@code 0} is understood
 * @param process the definition proper
 */
public record ProcessFile(String engine, ProcessDefinition process) {}
