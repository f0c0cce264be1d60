package dev.sopline.schemas.event;

import dev.sopline.schemas.instance.InstanceView;

/**
 * The {@code data} of a {@code sop.instance.retried} CloudEvent on {@code sop.events}: an operator retried a failed
 * instance. It comes after the {@code state_changed} events of the retry (steps active again, the instance running
 * or waiting), so a subscriber that reads it sees the instance as the retry left it.
 *
 * @param stepId the step that had failed and starts a new attempt
 * @param attempt that new attempt
 * @param instance the instance after the retry
 */
public record InstanceRetried(String stepId, int attempt, InstanceView instance) {}
