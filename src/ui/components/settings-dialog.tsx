import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { listModels } from "../../adapters/llm/list-models";
import { pageMove } from "../../app/isolation";
import { testConnection } from "../../adapters/llm/test-connection";
import { PROVIDER_PRESETS, presetOf } from "../../core/providers";
import { BUILTIN_MODELS, baseURLProblem, modelConfig, type ProviderKind, type Settings, specFor } from "../../core/settings";
import { useServices, useSettings } from "../hooks/services";
import { ErrorBox } from "./error-box";
import { SettingsAdvanced } from "./settings-advanced";
import { NotifySetting } from "../notifications/notify-setting";
import { useModal } from "../hooks/use-modal";
import { NumberInput } from "./number-input";
import { escapeTo, UnsavedGuard } from "./unsaved-guard";

const PROVIDERS: { value: ProviderKind; label: string }[] = [
  { value: "demo", label: "Demo (no key)" },
  ...PROVIDER_PRESETS.map((p) => ({ value: p.id, label: p.label })),
];

function baseURLHint(p: ProviderKind): string {
  const preset = presetOf(p);
  if (!preset) return "Not used by the demo model.";
  if (p === "openai-compatible") return "Required, e.g. http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio), http://localhost:8000/v1 (vLLM).";
  return `Filled in for ${preset.label}; change it only for a proxy or gateway.`;
}

type TestState = { state: "idle" } | { state: "running" } | { state: "ok"; text: string } | { state: "failed"; result: Awaited<ReturnType<typeof testConnection>> };

function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => React.ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && <small>{hint}</small>}
    </div>
  );
}

/** Provider, model, key, limits and prices. Stored in this browser's IndexedDB only. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { settings: store, llm, sessions } = useServices();
  const current = useSettings();
  const [draft, setDraft] = useState<Settings>(current);
  const [test, setTest] = useState<TestState>({ state: "idle" });
  const [saveError, setSaveError] = useState<string>();
  const [models, setModels] = useState<{ state: "idle" | "loading" } | { state: "ok"; ids: string[] } | { state: "failed"; message: string }>({ state: "idle" });
  const loadedList = useRef<HTMLSelectElement>(null);
  const loadModels = async () => {
    const problem = baseURLProblem(draft.baseURL);
    if (problem) return setModels({ state: "failed", message: problem });
    setModels({ state: "loading" });
    const r = await listModels(modelConfig(draft), undefined, AbortSignal.timeout(20_000));
    setModels(r.ok ? { state: "ok", ids: r.ids } : { state: "failed", message: r.message });
  };
  // The button is disabled while loading (the keyboard would fall to <body>): the list it loaded takes the focus.
  const loadButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (models.state === "ok" || models.state === "failed") (loadedList.current ?? loadButton.current)?.focus();
  }, [models.state]);
  const ref = useModal();
  const spec = specFor(draft, draft.modelID);
  // Esc or Cancel with changes not saved asks first (a key typed in, a provider chosen).
  const [guard, setGuard] = useState(false);
  const [opened] = useState(current);
  const dirty = draft !== opened && JSON.stringify(draft) !== JSON.stringify(opened);
  const requestClose = () => (dirty ? setGuard(true) : onClose());


  const set = (patch: Partial<Settings>) => setDraft((d) => ({ ...d, ...patch }));
  const setSpec = (patch: Partial<typeof spec>) => setDraft((d) => ({ ...d, models: { ...d.models, [d.modelID]: { ...specFor(d, d.modelID), ...patch } } }));
  const setPrice = (key: keyof typeof spec.prices, v: number) => setSpec({ prices: { ...spec.prices, [key]: v } });

  const onProvider = (p: ProviderKind) => {
    setModels({ state: "idle" });
    const preset = presetOf(p);
    // A summary model belongs to its provider.
    if (!preset) set({ provider: p, modelID: "demo-agent", summaryModelID: "", baseURL: "" });
    else set({ provider: p, modelID: preset.defaultModel, summaryModelID: "", baseURL: preset.baseURL });
  };
  const preset = presetOf(draft.provider);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await store.set({
        ...draft,
        permissions: draft.permissions.filter((r) => r.permission.trim() && r.pattern.trim()),
        skills: draft.skills.filter((s) => s.name.trim() || s.description.trim() || s.body.trim()),
      });
      // The sandbox is chosen once per page load: a new choice loads the page again (on WebContainer's isolated
      // page, or off it), unless a run is working; then it applies at the next reload, as the setting says.
      if (draft.sandbox !== current.sandbox && sessions.getStatuses().size === 0) {
        const to = pageMove(draft.sandbox);
        if (to) location.replace(to);
        else location.reload();
        return;
      }
      onClose();
    } catch (err) {
      setSaveError(err instanceof Error ? err.message : String(err));
    }
  };

  // The answer is brought into sight (on a short window the dialog scrolls).
  const testResult = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (test.state === "ok" || test.state === "failed") testResult.current?.scrollIntoView({ block: "nearest" });
  }, [test]);
  const runTest = async () => {
    setTest({ state: "running" });
    const result = await testConnection(modelConfig(draft), llm, AbortSignal.timeout(30_000));
    setTest(result.ok ? { state: "ok", text: result.text } : { state: "failed", result });
  };

  return (
    <dialog
      ref={ref}
      className="dialog settings"
      aria-labelledby="settings-title"
      {...escapeTo(requestClose)}
      onClose={onClose}
    >
      <form onSubmit={save}>
        <h2 id="settings-title">Settings</h2>
        <Field label="Provider">
          {(id) => (
            <select id={id} value={draft.provider} onChange={(e) => onProvider(e.target.value as ProviderKind)}>
              {PROVIDERS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Base URL" hint={baseURLHint(draft.provider)}>
          {(id) => <input id={id} type="url" value={draft.baseURL} disabled={draft.provider === "demo"} onChange={(e) => set({ baseURL: e.target.value })} placeholder="https://…/v1" />}
        </Field>
        <Field label="Model" hint="Type any model id, or load the provider's list. Limits and prices below are prefilled for known model families and saved per model.">
          {(id) => (
            <>
              <div className="model-row">
                <input id={id} list={`${id}-list`} value={draft.modelID} disabled={draft.provider === "demo"} onChange={(e) => set({ modelID: e.target.value })} />
                <button ref={loadButton} type="button" disabled={draft.provider === "demo" || models.state === "loading"} onClick={() => void loadModels()}>
                  {models.state === "loading" ? "Loading…" : "Load models"}
                </button>
              </div>
              <datalist id={`${id}-list`}>
                {(models.state === "ok" ? models.ids : BUILTIN_MODELS).map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
              {/* The whole list in a select: the field's suggestions are filtered by what it holds (the current model). */}
              {models.state === "ok" && models.ids.length > 0 && (
                <select
                  ref={loadedList}
                  className="loaded-models"
                  aria-label="Models from the provider"
                  value={models.ids.includes(draft.modelID) ? draft.modelID : ""}
                  onChange={(e) => e.target.value && set({ modelID: e.target.value })}
                >
                  {!models.ids.includes(draft.modelID) && <option value="">Pick one of {models.ids.length}…</option>}
                  {models.ids.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              )}
              <span aria-live="polite" className="hint">
                {models.state === "ok" && `${models.ids.length} models from the provider; pick one or type any id.`}
                {models.state === "failed" && `No list: ${models.message} You can still type a model id.`}
              </span>
            </>
          )}
        </Field>
        <Field label="Summary model" hint="Writes summaries and titles; a cheaper model of the same provider saves money. Empty: the session's own model.">
          {(id) => (
            <>
              <input
                id={id}
                list={`${id}-list`}
                value={draft.summaryModelID}
                disabled={draft.provider === "demo"}
                placeholder={draft.provider === "demo" ? "" : `Same as the session (${draft.modelID})`}
                onChange={(e) => set({ summaryModelID: e.target.value })}
              />
              <datalist id={`${id}-list`}>
                {(models.state === "ok" ? models.ids : BUILTIN_MODELS).map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        {preset && (
          <p className="hint provider-notes" data-testid="provider-notes">
            {preset.keyHint} {preset.corsHint}
          </p>
        )}
        {draft.provider === "demo" && (
          <p className="hint provider-notes" data-testid="provider-notes">
            The demo model is built into tabcode: no key, no network, no cost. Choose a provider above to use a real model.
          </p>
        )}
        {/* A key, a connection test and prices mean nothing for the built-in demo model. */}
        {draft.provider !== "demo" && (
          <>
            <Field label="API key" hint="Kept only in this browser and sent only to the provider above. Optional for local servers.">
              {(id) => <input id={id} type="password" autoComplete="off" value={draft.apiKey} onChange={(e) => set({ apiKey: e.target.value })} />}
            </Field>
            {/* Right under what it tests (provider, model, key), so its answer shows where the user is looking. */}
            <div className="test-connection">
              <button type="button" onClick={() => void runTest()} disabled={test.state === "running"}>
                {test.state === "running" ? "Testing…" : "Test connection"}
              </button>
              <div aria-live="polite" ref={testResult} className="test-result">
                {test.state === "ok" && <span className="ok">Connected. The model answered: “{test.text}”</span>}
                {test.state === "failed" && !test.result.ok && <ErrorBox error={test.result.error} inSettings />}
              </div>
            </div>
          </>
        )}
        <div className="field-row">
          <Field label="Context window">{(id) => <NumberInput id={id} integer min={1} value={spec.contextWindow} onValue={(n) => setSpec({ contextWindow: n })} />}</Field>
          <Field label="Max output tokens">{(id) => <NumberInput id={id} integer min={1} value={spec.maxOutputTokens} onValue={(n) => setSpec({ maxOutputTokens: n })} />}</Field>
        </div>
        {draft.provider !== "demo" && (
          <fieldset className="prices">
            <legend>Prices (USD per 1M tokens)</legend>
            <Field label="Input price">{(id) => <NumberInput id={id} min={0} value={spec.prices.input} onValue={(n) => setPrice("input", n)} />}</Field>
            <Field label="Output price">{(id) => <NumberInput id={id} min={0} value={spec.prices.output} onValue={(n) => setPrice("output", n)} />}</Field>
            <Field label="Cached input price">{(id) => <NumberInput id={id} min={0} value={spec.prices.cacheRead} onValue={(n) => setPrice("cacheRead", n)} />}</Field>
            <Field label="Cache write price">{(id) => <NumberInput id={id} min={0} value={spec.prices.cacheWrite} onValue={(n) => setPrice("cacheWrite", n)} />}</Field>
          </fieldset>
        )}
        <div className="field-row">
          <Field label="Max steps per turn">{(id) => <NumberInput id={id} integer min={1} max={500} value={draft.maxSteps} onValue={(n) => set({ maxSteps: n })} />}</Field>
        </div>
        <NotifySetting />
        <SettingsAdvanced draft={draft} set={set} />
        {saveError && <p className="error-text" role="alert">{saveError}</p>}
        {guard && <UnsavedGuard what="the settings" onKeep={() => setGuard(false)} onDiscard={onClose} />}
        <div className="dialog-actions">
          <button type="button" onClick={requestClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Save
          </button>
        </div>
      </form>
    </dialog>
  );
}
