/**
 * Maps rows of an `opencode export` file onto our schema before validation.
 * OpenCode fields we do not model (`projectID`, `slug`, `mode`, `path`,
 * `variant`, `summary` diffs, …) are left for the zod schemas to drop; fields
 * we require and OpenCode may lack get defaults. Anything still wrong is then
 * reported by validation with its path.
 */
import { emptyTokens, PART_TYPES, type PartType } from "../schema";

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The directory imported OpenCode sessions are re-homed to (as `opencode import` re-homes them). */
export const IMPORT_DIRECTORY = "/workspace";

function tokensOr(v: unknown): unknown {
  if (!isObject(v)) return emptyTokens();
  return { ...v, cache: isObject(v.cache) ? v.cache : { read: 0, write: 0 } };
}

/** Session info: re-homed, with placeholder totals (recomputed from the messages later). */
export function openCodeSession(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const { revert: _revert, share: _share, ...rest } = raw;
  return {
    ...rest,
    title: typeof raw.title === "string" ? raw.title : "Imported session",
    version: typeof raw.version === "string" ? raw.version : "unknown",
    directory: IMPORT_DIRECTORY,
    tokens: emptyTokens(),
    cost: 0,
  };
}

/** Message info: `agent` from the deprecated `mode` when missing; model fields defaulted. */
export function openCodeMessage(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const agent = typeof raw.agent === "string" ? raw.agent : typeof raw.mode === "string" ? raw.mode : "build";
  if (raw.role === "user") {
    const out: Obj = { ...raw, agent, model: isObject(raw.model) ? raw.model : { providerID: "unknown", modelID: "unknown" } };
    if (typeof out.system !== "string") delete out.system;
    return out;
  }
  if (raw.role === "assistant") {
    const out: Obj = {
      ...raw,
      agent,
      modelID: typeof raw.modelID === "string" ? raw.modelID : "unknown",
      providerID: typeof raw.providerID === "string" ? raw.providerID : "unknown",
      cost: raw.cost === undefined ? 0 : raw.cost,
      tokens: tokensOr(raw.tokens),
    };
    // Ours is a boolean (compaction summary); anything else is not ours to keep.
    if (typeof out.summary !== "boolean") delete out.summary;
    return out;
  }
  return raw;
}

function openCodeToolState(state: unknown): unknown {
  if (!isObject(state) || state.status !== "completed") return state;
  return { ...state, title: state.title ?? "", metadata: isObject(state.metadata) ? state.metadata : {} };
}

/**
 * Part: defaults for fields older OpenCode versions lack. Returns `undefined`
 * for a part type we do not know (a newer OpenCode): the caller drops it with a warning.
 */
export function openCodePart(raw: unknown, messageCreated: number): unknown {
  if (!isObject(raw)) return raw;
  if (typeof raw.type === "string" && !PART_TYPES.includes(raw.type as PartType)) return undefined;
  switch (raw.type) {
    case "step-finish":
      return { ...raw, reason: typeof raw.reason === "string" ? raw.reason : "unknown", cost: raw.cost ?? 0, tokens: tokensOr(raw.tokens) };
    case "reasoning":
      return { ...raw, time: isObject(raw.time) ? raw.time : { start: messageCreated } };
    case "tool":
      return { ...raw, state: openCodeToolState(raw.state) };
    default:
      return raw;
  }
}
