package dev.sopline.judgment;

/**
 * Turns the offline model's scores into a confidence. What tells a right choice from a guess is the proposal's lead
 * over the next value, not how similar it is: it must lead both plainly and by lift ({@link OptionScores}), and the
 * smaller lead counts. The confidence is 0.5 at a tie (or when the two ways disagree) and rises by 0.03 per hundredth
 * of lead, so the default threshold (0.8) needs a lead of 0.10; see the README's evaluation for how that compares with
 * the leads of wrong proposals.
 */
final class MarginCalibration {

    private static final double AT_TIE = 0.5;
    private static final double PER_MARGIN = 3.0;
    private static final double MOST = 0.99;

    private MarginCalibration() {}

    static double confidence(OptionScores scores) {
        return Math.min(MOST, AT_TIE + PER_MARGIN * Math.max(0, scores.margin()));
    }
}
