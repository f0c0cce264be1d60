package dev.sopline.engine.api.query;

import dev.sopline.schemas.instance.InstanceState;

/**
 * Filters of the instance list.
 *
 * @param process only this process, or any when null
 * @param state only this state, or any when null
 */
public record InstanceFilter(String process, InstanceState state) {

    public static final InstanceFilter ANY = new InstanceFilter(null, null);
}
