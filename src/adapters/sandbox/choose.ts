/**
 * Picks the sandbox backend for this page load: WebContainer only when the
 * user chose it in Settings and it boots on a cross-origin isolated page,
 * otherwise the local backend, with a sentence saying why. "auto" is the
 * local backend: no third party (StackBlitz) is contacted unless chosen; a
 * command that needs full Node.js there offers WebContainer in its output
 * (`node-offer.ts`).
 */
import type { Sandbox } from "../../core/ports/sandbox";
import type { WebContainerLike } from "./webcontainer";
import { withWebContainerOffer } from "./node-offer";
import { bootWebContainer, WEBCONTAINER_LICENCE_NOTE, WebContainerUnavailable } from "./webcontainer-boot";

export type SandboxPreference = "auto" | "webcontainer" | "local";

export interface SandboxChoice {
  kind: "webcontainer" | "local";
  /** Human-readable reason for the choice (shown in Settings). */
  reason: string;
  /** Opens a session's sandbox on the chosen backend. */
  open(sessionID: string): Promise<Sandbox>;
  /** Licence terms of the runtime, when the WebContainer backend was chosen. */
  licenceNote?: string;
}

export interface ChooseDependencies {
  boot?: () => Promise<WebContainerLike>;
  openWebContainer?: (sessionID: string, wc: WebContainerLike) => Promise<Sandbox>;
  openLocal?: (sessionID: string) => Promise<Sandbox>;
}

const defaults: Required<ChooseDependencies> = {
  boot: () => bootWebContainer(),
  openWebContainer: async (sessionID, wc) => (await import("./webcontainer")).openWebContainerSandbox(sessionID, { wc }),
  openLocal: async (sessionID) => (await import("./local/index")).openLocalSandbox(sessionID),
};

export async function chooseSandbox(pref: SandboxPreference, deps: ChooseDependencies = {}): Promise<SandboxChoice> {
  const d = { ...defaults, ...deps };
  const local = (reason: string): SandboxChoice => ({ kind: "local", reason, open: d.openLocal });
  if (pref === "local") return local("chosen in Settings; it runs in this tab");
  if (pref === "auto")
    return {
      kind: "local",
      reason: "chosen automatically; it runs in this tab. WebContainer (Node.js, loaded from stackblitz.com) starts only if you choose it in Settings, and a command that needs Node.js offers it",
      open: async (sessionID) => withWebContainerOffer(await d.openLocal(sessionID)),
    };
  try {
    const wc = await d.boot();
    return {
      kind: "webcontainer",
      reason: "chosen in Settings; its runtime was loaded from stackblitz.com",
      open: (sessionID) => d.openWebContainer(sessionID, wc),
      licenceNote: WEBCONTAINER_LICENCE_NOTE,
    };
  } catch (e) {
    const reason = e instanceof WebContainerUnavailable ? e.reason : e instanceof Error ? e.message : String(e);
    return local(`WebContainer unavailable: ${reason}`);
  }
}
