/**
 * The automatic sandbox choice stays local and contacts no one. When a
 * command there needs full Node.js (npm, npx, a node script needing a
 * package or a module QuickJS lacks), its result gets one more line that
 * offers the WebContainer backend and says which host that contacts, so the
 * model can tell the user and the user can decide.
 */
import type { ExecOptions, ExecResult, Sandbox } from "../../core/ports/sandbox";
import { NEEDS_FULL_NODE } from "./local/missing-commands";

/** What the line before it (the command's own message, which names the WebContainer backend) does not say: what choosing it means. */
export const WEBCONTAINER_OFFER =
  'tabcode: the sandbox is on "Automatic", which stays in this tab and contacts no one. Choosing WebContainer loads StackBlitz\'s runtime from stackblitz.com; the page then reloads.\n';

export function needsFullNode(r: Pick<ExecResult, "stdout" | "stderr">): boolean {
  return r.stderr.includes(NEEDS_FULL_NODE) || r.stdout.includes(NEEDS_FULL_NODE);
}

/** The same sandbox, with the offer added to results that need full Node.js. */
export function withWebContainerOffer(sb: Sandbox): Sandbox {
  const exec = async (command: string, opts?: ExecOptions): Promise<ExecResult> => {
    const r = await sb.exec(command, opts);
    if (!needsFullNode(r)) return r;
    opts?.onOutput?.(WEBCONTAINER_OFFER);
    return { ...r, stderr: r.stderr + WEBCONTAINER_OFFER, combined: r.combined + WEBCONTAINER_OFFER };
  };
  return new Proxy(sb, {
    get(target, prop, receiver) {
      if (prop === "exec") return exec;
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
