package dev.sopline.engine.processor;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.state.Instance;

/**
 * A decision and the instance it was made on (null when there was none), which the history and the indexes compare
 * with the new state. Nothing is written yet.
 */
record Decided(Instance before, Decision decision) {

    /** An answer that decides nothing: the state stays as it is. */
    static Decided answer(Decision decision) {
        return new Decided(null, decision);
    }
}
