package dev.sopline.worker;

import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;

/**
 * The low-level form of a worker: turns a step-ready event into the full result to publish, including a judgment's
 * decision. Most workers want {@link StepHandler}; agents that report confidence and rationale implement this.
 * An exception thrown here is published as the attempt's error; {@code null} leaves the step to someone else.
 */
@FunctionalInterface
public interface StepResolver {

    StepResult resolve(StepReady step) throws Exception;
}
