package dev.sopline.schemas.event;

import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;

/**
 * The {@code data} of a {@code sop.instance.state_changed} CloudEvent on {@code sop.events}.
 *
 * @param from previous state; null when the instance was just created
 * @param to new state
 * @param instance the instance after the change
 */
public record InstanceStateChanged(InstanceState from, InstanceState to, InstanceView instance) {}
