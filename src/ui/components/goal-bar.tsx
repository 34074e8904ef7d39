import { useSyncExternalStore } from "react";
import type { Goal, Session } from "../../core/schema";
import { goalUsage } from "../../core/session/goal";
import { formatCost, formatTokens } from "../format";
import { useServices } from "../hooks/services";

const ENDED: Record<Exclude<Goal["state"], "active">, string> = {
  met: "Goal met",
  blocked: "Goal blocked: the model needs you",
  spent: "Goal stopped: budget spent",
  stopped: "Goal stopped",
};

/** The session's `/goal`: objective, stop condition, budget used, and Stop / Resume (after a reload it asks first). */
export function GoalBar({ session, busy, onError }: { session: Session; busy: boolean; onError: (m: string) => void }) {
  const { sessions } = useServices();
  const armed = useSyncExternalStore(sessions.subscribe, () => sessions.goals.isArmed(session.id));
  const goal = session.goal;
  if (!goal) return null;
  const used = goalUsage(session, goal);
  const pct = Math.min(100, Math.round(used.fraction * 100));
  const usedLabel =
    goal.budget.kind === "cost" ? `${formatCost(used.cost)} of ${formatCost(goal.budget.limit)}` : `${formatTokens(used.tokens)} of ${formatTokens(goal.budget.limit)} tokens`;
  const active = goal.state === "active";
  const waiting = active && !armed;
  const run = (what: string, job: () => Promise<void>) => () => void job().catch((e: unknown) => onError(`${what}: ${e instanceof Error ? e.message : String(e)}`));
  const label =
    goal.state === "active" ? (armed ? "Working on the goal" : "Goal paused") : goal.state === "spent" && used.fraction < 1 ? "Goal stopped: no room in the budget for another step" : ENDED[goal.state];
  return (
    <section className={`goal-bar goal-${goal.state}`} aria-label="Goal">
      <div className="goal-text">
        <strong className="goal-state">{label}</strong>
        <span className="goal-objective" title={goal.until ? `${goal.objective} — until ${goal.until}` : goal.objective}>
          {goal.objective}
          {goal.until && <span className="goal-until"> · until {goal.until}</span>}
        </span>
      </div>
      <div className="goal-budget">
        <span className="goal-meter" role="progressbar" aria-label="Goal budget used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={usedLabel}>
          <span style={{ width: `${pct}%` }} />
        </span>
        <span className="goal-used">{usedLabel}</span>
      </div>
      <div className="goal-actions">
        {waiting && !busy && (
          <>
            <span className="goal-ask" role="status">
              Resume goal?
            </span>
            <button type="button" className="primary" onClick={run("Could not resume the goal", () => sessions.resumeGoal(session.id))}>
              Resume
            </button>
          </>
        )}
        {active ? (
          <button type="button" onClick={run("Could not stop the goal", () => sessions.goals.stop(session.id))}>
            Stop goal
          </button>
        ) : (
          <button type="button" onClick={run("Could not dismiss the goal", () => sessions.goals.clear(session.id))} aria-label="Dismiss the goal">
            Dismiss
          </button>
        )}
      </div>
    </section>
  );
}
