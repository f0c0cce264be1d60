package dev.sopline.gateway.api.doc;

/** The groups operations are listed under; a generated client gets one class per group. */
public final class ApiTags {

    public static final String PROCESSES = "Processes";
    public static final String INSTANCES = "Instances";
    public static final String STEPS = "Steps";
    public static final String EVENTS = "Events";
    public static final String TRIGGERS = "Triggers";
    public static final String TOKENS = "Tokens";
    public static final String WEBHOOKS = "Webhooks";
    public static final String WORKSPACES = "Workspaces";
    public static final String METRICS = "Metrics";

    private ApiTags() {}
}
