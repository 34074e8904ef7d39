import { ascendingId } from "../ids";
import type { PermissionRule, Ruleset } from "../schema";
import { type PermissionAsk, PermissionRefused } from "./ask";
import { decideAsk } from "./evaluate";

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

/** Where a session's "always" approvals are kept, so they survive a reload. */
export interface ApprovalStorage {
  load(sessionID: string): Promise<Ruleset>;
  save(sessionID: string, approved: Ruleset): Promise<void>;
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
  private loading = new Map<string, Promise<void>>();
  private log: PermissionDecision[] = [];
  private listeners = new Set<() => void>();
  private snapshot: PendingPermission[] = [];

  constructor(
    private readonly rules: (sessionID: string) => Ruleset[],
    private readonly storage?: ApprovalStorage,
  ) {}

  /** Loads the session's stored approvals once (a failed load leaves none: the user is asked). */
  private loaded(sessionID: string): Promise<void> {
    if (!this.storage || this.approved.has(sessionID)) return Promise.resolve();
    let p = this.loading.get(sessionID);
    if (!p) {
      const storage = this.storage;
      p = storage
        .load(sessionID)
        .catch((): Ruleset => [])
        .then((stored) => {
          const now = this.approved.get(sessionID) ?? [];
          this.approved.set(sessionID, [...stored, ...now]);
        });
      this.loading.set(sessionID, p);
    }
    return p;
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  }
  pending(): PendingPermission[] {
    return this.snapshot;
  }
  /** The configured rulesets in force for a session. */
  rulesFor(sessionID: string): Ruleset[] {
    return this.rules(sessionID);
  }
  /** Logs a refusal made where the command or change happened (the sandbox), not through `ask`. */
  noteRefusal(sessionID: string, permission: string, pattern: string, rule?: PermissionRule): void {
    this.record({ sessionID, permission, pattern, action: "deny", rule });
    for (const l of this.listeners) l();
  }
  decisions(sessionID: string): PermissionDecision[] {
    return this.log.filter((d) => d.sessionID === sessionID);
  }
  private changed(): void {
    this.snapshot = this.waiters.map((w) => w.request);
    for (const l of this.listeners) l();
  }

  /**
   * Resolves when every pattern is allowed; rejects with PermissionRefused otherwise.
   * Configured rules come from `rules(sessionID)`; "always" approvals never beat a configured deny.
   * `parked` is called when the question is left to the user (not when the rules decide it).
   */
  async ask(sessionID: string, req: PermissionAsk & { title: string; callID?: string }, opts: { parked?: () => void } = {}): Promise<void> {
    await this.loaded(sessionID);
    const decision = decideAsk(req, this.rules(sessionID), this.approved.get(sessionID));
    if (decision.denied) {
      const { pattern, rule } = decision.denied;
      this.record({ sessionID, permission: req.permission, pattern, action: "deny", rule });
      throw new PermissionRefused(
        `A permission rule forbids this call (${req.permission} "${pattern}" is denied by the rule "${rule?.pattern ?? "*"}"). Do not retry it; choose another approach or ask the user.`,
        false,
      );
    }
    for (const v of decision.verdicts)
      if (v.action === "allow" && !decision.asking.includes(v.pattern))
        this.record({ sessionID, permission: req.permission, pattern: v.pattern, action: "allow", rule: v.rule });
    if (decision.action === "allow") return;
    const request: PendingPermission = { ...req, patterns: decision.asking, id: ascendingId("per"), sessionID };
    // The question waits for the user: the caller may note it (a reload meanwhile then says so).
    opts.parked?.();
    await new Promise<void>((resolve, reject) => {
      this.waiters.push({ request, resolve, reject });
      this.changed();
    });
  }

  /**
   * Answers a pending question. `always` stores the request's `always` patterns
   * as approvals and resolves other pending questions of the session they now
   * cover; `reject` also rejects the session's other pending questions.
   */
  reply(id: string, reply: PermissionReply, now = Date.now()): void {
    const w = this.waiters.find((x) => x.request.id === id);
    if (!w) return;
    const { request } = w;
    this.waiters = this.waiters.filter((x) => x !== w);
    this.recordReply(request, reply, now);
    if (reply.type === "reject") {
      const error = () =>
        reply.feedback
          ? new PermissionRefused(`The user rejected this call with feedback: ${reply.feedback}`, false)
          : new PermissionRefused("The user rejected this call.", true);
      w.reject(error());
      const others = this.waiters.filter((x) => x.request.sessionID === request.sessionID);
      this.waiters = this.waiters.filter((x) => x.request.sessionID !== request.sessionID);
      for (const o of others) {
        this.recordReply(o.request, reply, now);
        o.reject(error());
      }
    } else {
      if (reply.type === "always") this.approve(request);
      w.resolve();
    }
    this.changed();
  }

  /** Adds "always" approvals, then releases the session's pending questions they now allow. */
  private approve(request: PendingPermission): void {
    const list = this.approved.get(request.sessionID) ?? [];
    for (const p of request.always) list.push({ permission: request.permission, pattern: p, action: "allow" });
    this.approved.set(request.sessionID, list);
    this.storage?.save(request.sessionID, [...list]).catch(() => undefined);
    const configured = this.rules(request.sessionID);
    const released = this.waiters.filter(
      (x) => x.request.sessionID === request.sessionID && decideAsk(x.request, configured, list).action === "allow",
    );
    this.waiters = this.waiters.filter((x) => !released.includes(x));
    for (const x of released) {
      for (const pattern of x.request.patterns)
        this.record({ sessionID: x.request.sessionID, permission: x.request.permission, pattern, action: "allow" });
      x.resolve();
    }
  }

  private recordReply(request: PendingPermission, reply: PermissionReply, now: number): void {
    for (const pattern of request.patterns)
      this.record({
        sessionID: request.sessionID,
        permission: request.permission,
        pattern,
        action: reply.type,
        feedback: reply.type === "reject" ? reply.feedback : undefined,
        time: now,
      });
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
