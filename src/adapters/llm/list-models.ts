/**
 * The model list of a provider, for the model picker: each provider's own
 * list endpoint, called from the browser with the user's key (sent only
 * there). The picker keeps a free-text field, so a failure only means no
 * suggestions.
 */
import type { ModelConfig } from "../../core/ports/llm";
import { presetOf } from "../../core/providers";
import { baseURLProblem } from "../../core/settings";
import { ANTHROPIC_BROWSER_HEADER } from "./model-factory";
import { messageFromBody } from "./error-facts";
import { scrubSecrets } from "./scrub-secrets";

export type ModelList = { ok: true; ids: string[] } | { ok: false; message: string };

/** Lists the models of `config`'s provider (sorted ids), or says in words why it could not. */
export async function listModels(config: Pick<ModelConfig, "provider" | "baseURL" | "apiKey">, f: typeof fetch = globalThis.fetch, signal?: AbortSignal): Promise<ModelList> {
  const preset = presetOf(config.provider);
  if (!preset) return { ok: false, message: "The demo model has no model list." };
  const problem = baseURLProblem(config.baseURL);
  if (problem) return { ok: false, message: problem };
  const base = (config.baseURL?.trim() || preset.baseURL).replace(/\/+$/, "");
  const key = config.apiKey?.trim() ?? "";
  const headers: Record<string, string> = { accept: "application/json" };
  if (config.provider === "anthropic") Object.assign(headers, ANTHROPIC_BROWSER_HEADER, { "anthropic-version": "2023-06-01" }, key ? { "x-api-key": key } : {});
  else if (config.provider === "google") Object.assign(headers, key ? { "x-goog-api-key": key } : {});
  else if (key) headers.authorization = `Bearer ${key}`;
  const url = `${base}/models${config.provider === "anthropic" ? "?limit=1000" : config.provider === "google" ? "?pageSize=1000" : ""}`;
  let res: Response;
  try {
    res = await f(url, { headers, ...(signal ? { signal } : {}) });
  } catch (e) {
    return { ok: false, message: `Could not reach ${base} (${scrubSecrets(e instanceof Error ? e.message : String(e), key)}). ${preset.corsHint}` };
  }
  if (!res.ok) {
    // The provider's own words (the message inside its JSON error), not the raw body.
    const said = scrubSecrets(messageFromBody(await res.text().catch(() => "")) ?? "", key);
    const quoted = said ? `: “${said}”` : "";
    if (res.status === 401 || res.status === 403) {
      return key
        ? { ok: false, message: `The provider refused the API key for the model list (HTTP ${res.status}${quoted}). Check the key.` }
        : { ok: false, message: `The server asks for an API key to list its models (HTTP ${res.status}${quoted}). Add the key in Settings.` };
    }
    if (res.status === 404) return { ok: false, message: `This server has no model list at ${base}/models (HTTP 404${quoted}). Type the model name instead, or check the base URL.` };
    return { ok: false, message: `The provider answered HTTP ${res.status} to the model list${quoted}.` };
  }
  const body: unknown = await res.json().catch(() => undefined);
  const ids = idsOf(body);
  return ids.length > 0 ? { ok: true, ids } : { ok: false, message: "The provider's model list was empty or not in a known shape." };
}

/** `{data: [{id}]}` (OpenAI and compatible, Anthropic, OpenRouter) or `{models: [{name: "models/…"}]}` (Gemini). */
function idsOf(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const rec = body as { data?: unknown; models?: unknown };
  const out: string[] = [];
  for (const item of Array.isArray(rec.data) ? rec.data : []) {
    if (typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "string") out.push((item as { id: string }).id);
  }
  for (const item of Array.isArray(rec.models) ? rec.models : []) {
    const name = typeof item === "object" && item !== null ? (item as { name?: unknown }).name : undefined;
    if (typeof name === "string") out.push(name.replace(/^models\//, ""));
  }
  return [...new Set(out)].sort();
}
