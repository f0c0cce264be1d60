package dev.sopline.judgment;

import java.util.Map;

/**
 * An agent's decision. The engine compares the confidence with the step's threshold and escalates below it, keeping
 * the outputs as the agent's proposal.
 *
 * @param outputs the decided outputs
 * @param confidence in [0,1]
 * @param rationale why, in a few sentences
 * @param model which model decided
 * @param promptSha256 SHA-256 (lowercase hex) of what the model read
 */
public record AgentAnswer(Map<String, Object> outputs, double confidence, String rationale, String model, String promptSha256) {}
