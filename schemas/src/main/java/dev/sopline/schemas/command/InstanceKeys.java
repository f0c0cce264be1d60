package dev.sopline.schemas.command;

/**
 * Record keys of the engine's topics and stores. The workspace leads every key, so that no lookup can reach
 * another workspace's data by id alone.
 */
public final class InstanceKeys {

    private InstanceKeys() {}

    public static String key(String workspace, String instanceId) {
        return workspace + "/" + instanceId;
    }

    public static String processKey(String workspace, String process) {
        return workspace + "/" + process;
    }
}
