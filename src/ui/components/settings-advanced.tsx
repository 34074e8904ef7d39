import { hasProviderCompaction, presetOf } from "../../core/providers";
import type { Settings } from "../../core/settings";
import { OfflineEngines } from "./offline-engines";
import { RulesEditor } from "./rules-editor";
import { NumberInput } from "./number-input";

interface Props {
  draft: Settings;
  set: (patch: Partial<Settings>) => void;
}

/** Sandbox, context management, rules, skills and permissions: the parts of Settings beyond the model. */
export function SettingsAdvanced({ draft, set }: Props) {
  const skills = draft.skills;
  const setSkill = (i: number, patch: Partial<Settings["skills"][number]>) => set({ skills: skills.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
    <>
      <details>
        <summary>Sandbox and context</summary>
        <div className="field">
          <label htmlFor="set-sandbox">Sandbox</label>
          <select id="set-sandbox" value={draft.sandbox} onChange={(e) => set({ sandbox: e.target.value as Settings["sandbox"] })}>
            <option value="auto">Automatic (local; nothing is contacted)</option>
            <option value="webcontainer">WebContainer (node, npm; contacts stackblitz.com)</option>
            <option value="local">Local (built-in shell, python3, git, sqlite3, node scripts; works offline)</option>
          </select>
          <small>
            Saving a new choice loads the page again to apply it (while a run is working, it applies at the next reload). Only the WebContainer choice contacts a third party: it loads StackBlitz's hosted runtime from
            stackblitz.com (free for personal and open-source use; commercial production use needs their licence). Automatic and Local
            never contact it; on Automatic, a command that needs full Node.js (npm, a package) says so and offers this switch. WebContainer
            needs a cross-origin isolated page, which opens a little slower, so only this choice uses one: tabcode then opens at the address
            ending in /isolated/.
          </small>
        </div>
        <OfflineEngines />
        <label className="check">
          <input type="checkbox" checked={draft.compaction.auto} onChange={(e) => set({ compaction: { ...draft.compaction, auto: e.target.checked } })} />
          Compact automatically when the context window fills up
        </label>
        {hasProviderCompaction(draft.provider) && (
          <label className="check">
            <input type="checkbox" checked={draft.compaction.provider === true} onChange={(e) => set({ compaction: { ...draft.compaction, provider: e.target.checked } })} />
            Let {presetOf(draft.provider)?.label ?? "the provider"} compact on its side first (its summary is opaque: it cannot be read or edited here; tabcode's own summary stays the fallback)
          </label>
        )}
        <label className="check">
          <input type="checkbox" checked={draft.compaction.prune} onChange={(e) => set({ compaction: { ...draft.compaction, prune: e.target.checked } })} />
          Clear old tool outputs from the model's context (they stay visible here)
        </label>
        <div className="field">
          <label htmlFor="set-threshold">Compaction threshold (% of the usable window)</label>
          <NumberInput
            id="set-threshold"
            integer
            min={10}
            max={100}
            value={Math.round(draft.compaction.threshold * 100)}
            onValue={(n) => set({ compaction: { ...draft.compaction, threshold: n / 100 } })}
          />
        </div>
      </details>
      <details>
        <summary>Rules and skills</summary>
        <div className="field">
          <label htmlFor="set-rules">Global rules</label>
          <textarea id="set-rules" rows={5} value={draft.globalRules} onChange={(e) => set({ globalRules: e.target.value })} placeholder="Instructions for every session, like a global AGENTS.md" />
          <small>Project rules come from AGENTS.md (or CLAUDE.md, .cursorrules) in the workspace.</small>
        </div>
        <fieldset className="rules-editor">
          <legend>Global skills</legend>
          <p className="hint">Listed to the model by name and description; the body is loaded only when the model asks for it.</p>
          {skills.map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
            <div className="skill-row" key={i}>
              <input aria-label={`Skill ${i + 1} name`} value={s.name} placeholder="kebab-case-name" onChange={(e) => setSkill(i, { name: e.target.value })} />
              <input aria-label={`Skill ${i + 1} description`} value={s.description} placeholder="When to use it" onChange={(e) => setSkill(i, { description: e.target.value })} />
              <textarea aria-label={`Skill ${i + 1} body`} rows={3} value={s.body} onChange={(e) => setSkill(i, { body: e.target.value })} />
              <button type="button" className="icon" aria-label={`Remove skill ${i + 1}`} onClick={() => set({ skills: skills.filter((_, j) => j !== i) })}>
                ✕
              </button>
            </div>
          ))}
          <button type="button" onClick={() => set({ skills: [...skills, { name: "", description: "", body: "" }] })}>
            Add skill
          </button>
        </fieldset>
      </details>
      <details>
        <summary>Permissions</summary>
        <RulesEditor label="Global permission rules" rules={draft.permissions} onChange={(permissions) => set({ permissions })} />
      </details>
    </>
  );
}
