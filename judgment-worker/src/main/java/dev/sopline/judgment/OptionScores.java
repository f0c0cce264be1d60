package dev.sopline.judgment;

import java.util.List;

/**
 * How much a case resembles each allowed value, seen two ways: plainly ({@code similarity}), and beyond what the
 * case's mere form explains ({@code lift}: the similarity minus that of the same inputs with no values). A short
 * greeting resembles short value labels plainly and nothing by lift; a long case can resemble every label less than
 * a blank form does, yet one far more than the others. The value with the best lift is proposed.
 *
 * @param candidates the allowed values
 * @param similarity cosine similarity of the case with each value's text
 * @param lift similarity minus the blank form's similarity with each value's text
 */
record OptionScores(List<String> candidates, double[] similarity, double[] lift) {

    int proposed() {
        return best(lift);
    }

    /** The proposal's lead over the next value, the smaller of the two ways; negative when the two ways disagree. */
    double margin() {
        int proposed = proposed();
        return Math.min(lead(similarity, proposed), lead(lift, proposed));
    }

    /** The runner-up by lift, or -1 when there is a single value. */
    int runnerUp() {
        int runnerUp = -1;
        for (int i = 0; i < lift.length; i++) {
            if (i != proposed() && (runnerUp < 0 || lift[i] > lift[runnerUp])) {
                runnerUp = i;
            }
        }
        return runnerUp;
    }

    private static int best(double[] scores) {
        int best = 0;
        for (int i = 1; i < scores.length; i++) {
            if (scores[i] > scores[best]) {
                best = i;
            }
        }
        return best;
    }

    private static double lead(double[] scores, int index) {
        double others = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < scores.length; i++) {
            if (i != index) {
                others = Math.max(others, scores[i]);
            }
        }
        return others == Double.NEGATIVE_INFINITY ? 1 : scores[index] - others;
    }
}
