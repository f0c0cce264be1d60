package dev.sopline.schemas.validation;

/** The stable codes of validation details. Clients branch on them, so they never change meaning. */
public final class ViolationCode {

    /** A required field or value is absent. */
    public static final String REQUIRED = "required";
    /** A value has the wrong JSON or YAML type. */
    public static final String INVALID_TYPE = "invalid_type";
    /** A value is not one of the allowed values; {@code expected} lists them. */
    public static final String NOT_IN_ENUM = "not_in_enum";
    /** A name that must be unique appears twice. */
    public static final String DUPLICATE = "duplicate";
    /** A {@code ${...}} reference names an input, step or output that does not exist, or an unknown root. */
    public static final String UNKNOWN_REFERENCE = "unknown_reference";
    /** A {@code ${...}} reference names the step itself or a later step. */
    public static final String FORWARD_REFERENCE = "forward_reference";
    /** A {@code ${...}} expression cannot be read (unclosed, empty, bad path). */
    public static final String INVALID_REFERENCE = "invalid_reference";
    /** The file's {@code engine} major version is not understood. */
    public static final String UNSUPPORTED_VERSION = "unsupported_version";
    /** A process version is not {@code <major>.<minor>} with numeric parts. */
    public static final String INVALID_VERSION = "invalid_version";
    /** The name+version exists with other content. */
    public static final String VERSION_EXISTS = "version_exists";
    /** A duration is not a whole number with {@code s}, {@code m}, {@code h} or {@code d}. */
    public static final String INVALID_DURATION = "invalid_duration";
    /** A cron expression cannot be read. */
    public static final String INVALID_CRON = "invalid_cron";
    /** A time zone is not a known IANA zone. */
    public static final String INVALID_TIMEZONE = "invalid_timezone";
    /** A number is outside its allowed range. */
    public static final String OUT_OF_RANGE = "out_of_range";
    /** A name does not match the allowed pattern. */
    public static final String INVALID_NAME = "invalid_name";
    /** The file is not well-formed YAML or not valid UTF-8. */
    public static final String SYNTAX_ERROR = "syntax_error";
    /** The file exceeds the size, alias or nesting limits. */
    public static final String TOO_LARGE = "too_large";
    /** The file uses a YAML tag other than the standard ones. */
    public static final String UNSUPPORTED_TAG = "unsupported_tag";
    /** A field that is not declared. */
    public static final String UNKNOWN_FIELD = "unknown_field";
    /** A webhook trigger's {@code auth.secret_env} names a platform setting or a basic process variable such as PATH. */
    public static final String FORBIDDEN_SECRET_ENV = "forbidden_secret_env";
    /** The workspace already holds as many of these (tokens, webhooks) as one may. */
    public static final String LIMIT_REACHED = "limit_reached";

    private ViolationCode() {}
}
