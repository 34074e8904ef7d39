/**
 * Runs the replacer cascade where the sandbox offers to (the local sandbox's
 * Worker), so a slow fuzzy match never blocks the page; in place otherwise.
 */
import type { ReplaceTextResult } from "../ports/sandbox";
import { replace } from "./replacers";
import type { ToolContext } from "./tool";

export function replaceText(
  ctx: Pick<ToolContext, "sandbox">,
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
): Promise<ReplaceTextResult> {
  const sandbox = ctx.sandbox;
  if (sandbox?.replaceText) return sandbox.replaceText(content, oldString, newString, replaceAll);
  return Promise.resolve(replace(content, oldString, newString, replaceAll));
}
