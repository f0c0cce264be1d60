package dev.sopline.schemas.event;

import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;

/**
 * The {@code data} of a {@code sop.step.state_changed} CloudEvent on {@code sop.events}.
 *
 * @param workspace workspace of the instance
 * @param instanceId ULID of the instance
 * @param process process name
 * @param version process version
 * @param from previous state
 * @param to new state
 * @param step the step after the change
 */
public record StepStateChanged(
        String workspace, String instanceId, String process, String version, StepState from, StepState to, StepView step) {}
