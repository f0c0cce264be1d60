package dev.sopline.schemas.instance;

/**
 * Why a step attempt or an instance failed.
 *
 * @param stepId the step, on instance errors; null on a step's own error
 * @param code stable code, for example {@code step_timeout}, {@code callback_expired} or a worker's own code
 * @param message a sentence for people
 */
public record StepError(String stepId, String code, String message) {

    public static StepError of(String code, String message) {
        return new StepError(null, code, message);
    }

    public StepError forStep(String step) {
        return new StepError(step, code, message);
    }
}
