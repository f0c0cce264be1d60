package dev.sopline.schemas.instance;

/** Bounds on the texts workers and agents report, which the engine keeps outside the instance's data budget. */
public final class Texts {

    private Texts() {
    }

    /** {@code text} itself when it has at most {@code max} characters, else its first {@code max} and an ellipsis. */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "…";
    }
}
