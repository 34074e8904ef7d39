import type { PermissionAction, Ruleset } from "../../core/schema";

const ACTIONS: PermissionAction[] = ["allow", "ask", "deny"];

/** Edits an ordered list of permission rules (last match wins). */
export function RulesEditor({ rules, onChange, label }: { rules: Ruleset; onChange: (r: Ruleset) => void; label: string }) {
  const set = (i: number, patch: Partial<Ruleset[number]>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="rules-editor">
      <legend>{label}</legend>
      <p className="hint">Checked in order; the last rule that matches decides. Patterns use * and ?; “rm *” also matches a bare “rm”.</p>
      <p className="hint">
        Bash rules are checked for every command that runs, including those run by scripts, xargs or find -exec. A “protect” rule with
        action deny (for example “config/**”) means no tool and no command may change, move, delete or link those paths.
      </p>
      {rules.length === 0 && <p className="list-empty">No rules: the defaults apply.</p>}
      {rules.length > 0 && (
        // What each column is, for the eye (each field names itself for assistive technology).
        <div className="rule-row rule-head" aria-hidden="true">
          <span>Permission (tool)</span>
          <span>Pattern</span>
          <span>Action</span>
          <span />
        </div>
      )}
      {rules.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional by nature
        <div className="rule-row" key={i}>
          <input aria-label={`Rule ${i + 1} permission`} value={r.permission} onChange={(e) => set(i, { permission: e.target.value })} placeholder="bash" />
          <input aria-label={`Rule ${i + 1} pattern`} value={r.pattern} onChange={(e) => set(i, { pattern: e.target.value })} placeholder="rm *" />
          <select aria-label={`Rule ${i + 1} action`} value={r.action} onChange={(e) => set(i, { action: e.target.value as PermissionAction })}>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          <button type="button" className="icon" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange(rules.filter((_, j) => j !== i))}>
            ✕
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rules, { permission: "bash", pattern: "*", action: "ask" }])}>
        Add rule
      </button>{" "}
      <button type="button" onClick={() => onChange([...rules, { permission: "protect", pattern: "config/**", action: "deny" }])}>
        Add protect rule
      </button>
    </fieldset>
  );
}
