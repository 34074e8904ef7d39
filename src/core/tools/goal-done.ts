import { GOAL_DONE_TOOL, GoalDoneInput } from "./goal-done-input";
import { defineTool } from "./tool";

/**
 * `goal_done`: offered only while a `/goal` is active. The call itself is the
 * signal (the goal runner reads it from the tool log after the turn); running
 * it changes nothing.
 */
export const goalDoneTool = defineTool({
  id: GOAL_DONE_TOOL,
  description:
    'Declare the session\'s goal finished. Call it only when the goal\'s stop condition is met (outcome "met"), or when you cannot make progress without the user (outcome "blocked"). tabcode then stops sending "continue toward the goal" messages.',
  parameters: GoalDoneInput,
  async execute({ outcome }) {
    return {
      title: outcome === "met" ? "Goal met" : "Goal blocked",
      output: outcome === "met" ? "The goal is marked as met. Answer the user with a short summary." : "The goal is paused as blocked. Tell the user what you need.",
    };
  },
});
