package dev.sopline.engine.state;

/** Pieces of store keys shared by the indexes. */
final class Keys {

    private Keys() {}

    /**
     * Epoch milliseconds as fifteen digits, so that keys sort in time order for range scans. Concatenation, not
     * String.format: keys are built for every state change on the stream thread, where format showed in profiles.
     */
    static String millis(long epochMillis) {
        String digits = Long.toString(epochMillis);
        return "0".repeat(Math.max(0, 15 - digits.length())) + digits;
    }
}
