import { ascendingId } from "../ids";
import type { PermissionRule, Ruleset } from "../schema";
import { PermissionRefused, type PermissionAsk } from "../tools/tool";
import { decidingRule } from "./evaluate";

export type PermissionReply = { type: "once" } | { type: "always" } | { type: "reject"; feedback?: string };

/** A question waiting for the user. */
export interface PendingPermission extends PermissionAsk {
  id: string;
  sessionID: string;
  callID?: string;
  /** The tool or mechanism that asks. */
  title: string;
}

/** One decision, kept for the per-session log. */
export interface PermissionDecision {
  time: number;
  sessionID: string;
  permission: string;
  pattern: string;
  action: "allow" | "deny" | "once" | "always" | "reject";
  /** The rule that decided, when a rule did (not the user). */
  rule?: PermissionRule;
  feedback?: string;
}

interface Waiter {
  request: PendingPermission;
  resolve: () => void;
  reject: (e: Error) => void;
}

/**
 * Evaluates permission asks against rulesets and parks `ask` decisions until
 * the user replies. Exposes subscribe/getSnapshot for the UI.
 */
export class PermissionBroker {
  private waiters: Waiter[] = [];
  private approved = new Map<string, Ruleset>();
  private log: PermissionDecision[] = [];
  private listeners = new Set<() => void>();
  private snapshot: PendingPermission[] = [];

  constructor(private readonly rules: (sessionID: string) => Ruleset[]) {}

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  }
  pending(): PendingPermission[] {
    return this.snapshot;
  }
  decisions(sessionID: string): PermissionDecision[] {
    return this.log.filter((d) => d.sessionID === sessionID);
  }
  private changed(): void {
    this.snapshot = this.waiters.map((w) => w.request);
    for (const l of this.listeners) l();
  }

  /** Resolves when every pattern is allowed; rejects with PermissionRefused otherwise. */
  async ask(sessionID: string, req: PermissionAsk & { title: string; callID?: string }): Promise<void> {
    const rulesets = [...this.rules(sessionID), this.approved.get(sessionID) ?? []];
    const asking: string[] = [];
    for (const pattern of req.patterns) {
      const rule = decidingRule(req.permission, pattern, ...rulesets);
      const action = rule?.action ?? "ask";
      if (action === "deny") {
        this.record({ sessionID, permission: req.permission, pattern, action: "deny", rule });
        throw new PermissionRefused(
          `A permission rule forbids this call (${req.permission} "${pattern}" is denied by the rule "${rule?.pattern ?? "*"}"). Do not retry it; choose another approach or ask the user.`,
          false,
        );
      }
      if (action === "allow") this.record({ sessionID, permission: req.permission, pattern, action: "allow", rule });
      else asking.push(pattern);
    }
    if (asking.length === 0) return;
    const request: PendingPermission = { ...req, patterns: asking, id: ascendingId("per"), sessionID };
    await new Promise<void>((resolve, reject) => {
      this.waiters.push({ request, resolve, reject });
      this.changed();
    });
  }

  reply(id: string, reply: PermissionReply, now = Date.now()): void {
    const w = this.waiters.find((x) => x.request.id === id);
    if (!w) return;
    const { request } = w;
    this.waiters = this.waiters.filter((x) => x !== w);
    for (const pattern of request.patterns)
      this.record({
        sessionID: request.sessionID,
        permission: request.permission,
        pattern,
        action: reply.type,
        feedback: reply.type === "reject" ? reply.feedback : undefined,
        time: now,
      });
    if (reply.type === "reject") {
      w.reject(
        reply.feedback
          ? new PermissionRefused(`The user rejected this call with feedback: ${reply.feedback}`, false)
          : new PermissionRefused("The user rejected this call.", true),
      );
    } else {
      if (reply.type === "always") {
        const list = this.approved.get(request.sessionID) ?? [];
        for (const p of request.always) list.push({ permission: request.permission, pattern: p, action: "allow" });
        this.approved.set(request.sessionID, list);
      }
      w.resolve();
    }
    this.changed();
  }

  /** Rejects every pending question of a session (abort). */
  cancelSession(sessionID: string): void {
    const mine = this.waiters.filter((w) => w.request.sessionID === sessionID);
    this.waiters = this.waiters.filter((w) => w.request.sessionID !== sessionID);
    for (const w of mine) w.reject(new PermissionRefused("Cancelled.", true));
    if (mine.length) this.changed();
  }

  private record(d: Omit<PermissionDecision, "time"> & { time?: number }): void {
    this.log.push({ ...d, time: d.time ?? Date.now() });
    if (this.log.length > 2000) this.log.splice(0, this.log.length - 2000);
  }
}
