import { changeRefusal, type PathPolicy, PathRefused, pathPolicy } from "../permission/path-policy";
import type { Sandbox } from "../ports/sandbox";
import type { Ruleset } from "../schema";
import { writeUserFile } from "./user-writes";

export type SaveResult = { ok: true } | { ok: false; message: string };

/** The path rules a person's own change meets: the protect rules of `rules` (`edit` rules are the agent's). */
export function personPolicy(sandbox: Sandbox, rules: Ruleset[]): PathPolicy {
  return pathPolicy(
    sandbox.root,
    rules.map((rs) => rs.filter((r) => r.permission === "protect")),
  );
}

/**
 * A person's edit of a workspace file (the Files viewer): written as the
 * user's (`writeUserFile`, so revert and the running step's patch treat it
 * right), unless a protect rule in `rules` covers the path — then nothing is
 * written and the refusal comes back in words. `edit` rules are the agent's
 * and do not apply to the person.
 */
export async function saveUserFile(sandbox: Sandbox, rel: string, data: Uint8Array | string, rules: Ruleset[]): Promise<SaveResult> {
  const policy = personPolicy(sandbox, rules);
  const refusal = changeRefusal(policy, `${sandbox.root}/${rel}`, "write");
  if (refusal) return { ok: false, message: `Not saved: ${refusal.message}.` };
  try {
    await writeUserFile(sandbox, rel, data, { policy });
    return { ok: true };
  } catch (e) {
    if (e instanceof PathRefused) return { ok: false, message: `Not saved: ${e.message}.` };
    return { ok: false, message: `Could not save ${rel}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

