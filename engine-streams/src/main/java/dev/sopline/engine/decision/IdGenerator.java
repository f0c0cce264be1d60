package dev.sopline.engine.decision;

/** Mints ULIDs; injected so that decisions stay reproducible in tests. */
@FunctionalInterface
public interface IdGenerator {

    String newId();
}
