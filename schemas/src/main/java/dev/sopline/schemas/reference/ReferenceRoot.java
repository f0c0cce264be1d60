package dev.sopline.schemas.reference;

/** Where a {@code ${...}} reference reads from. */
public enum ReferenceRoot {
    /** {@code inputs.<name>}: the instance's start inputs. */
    INPUTS,
    /** {@code steps.<step_id>.outputs.<name>}: an earlier step's outputs. */
    STEPS,
    /** {@code trigger.payload.<path>}: the body of the trigger call that started the instance. */
    TRIGGER_PAYLOAD,
    /** {@code callback.payload.<path>}: the body of a webhook step's callback, in that step's outputs only. */
    CALLBACK_PAYLOAD
}
