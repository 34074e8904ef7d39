/**
 * Deny means deny, in the real shell: a generated corpus of commands that try
 * to run a denied command or change a protected path by every route a shell
 * offers (scripts, sh/bash -c, source, eval, functions, aliases, xargs,
 * find -exec/-delete, env, timeout, command, redirections, links, renames…).
 * Each must fail, the target must be unchanged, and the refusal must come
 * from the guard (not from an unrelated error). Positive controls show the
 * same commands work when no rule forbids them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { type PathRefusal, pathPolicy } from "../../../core/permission/path-policy";
import type { ExecGuard } from "../../../core/ports/sandbox";
import type { Ruleset } from "../../../core/schema";
import type { LocalSandbox } from "./local-sandbox";
import { OUTSIDE, PROTECT_PAYLOADS, RM_SPECIAL, ROUTES } from "./shell-corpus";
import { createLocalSandboxForTests } from "./testing";

const CONFIG = '{"v":1}\n';
const FILES = { "config/app.json": CONFIG, "victim.txt": "v\n" };
const RM_DENY: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "rm *", action: "deny" }];
const PROTECT: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }];

interface Log {
  denied: string[];
  paths: PathRefusal[];
}

function guardFor(rules: Ruleset, log: Log): ExecGuard {
  return {
    policy: pathPolicy("/workspace", [rules]),
    denied: (command) => log.denied.push(command),
    pathRefused: (r) => log.paths.push(r),
  };
}

/** Lists every workspace path with its content, to compare before and after. */
async function state(sb: LocalSandbox): Promise<string> {
  const r = await sb.exec("find /workspace -print | sort; cat /workspace/config/app.json /workspace/victim.txt");
  // Scripts and lists the commands themselves write are not what is checked.
  return r.stdout
    .split("\n")
    .filter((l) => !/^\/workspace\/(s\d?\.sh|list|v2)$/.test(l))
    .join("\n");
}

let sb: LocalSandbox;
let clean: string;
let cleanState: string;

beforeAll(async () => {
  sb = await createLocalSandboxForTests({ files: FILES });
  clean = await sb.snapshot();
  cleanState = await state(sb);
});

async function attempt(command: string, rules: Ruleset): Promise<{ log: Log; after: string; out: string }> {
  await sb.restore(clean);
  const log: Log = { denied: [], paths: [] };
  const r = await sb.exec(command, { guard: guardFor(rules, log), timeoutMs: 20_000 });
  const after = await state(sb);
  return { log, after, out: r.combined };
}

const rmCorpus = [...ROUTES.map(([name, wrap]) => [`${name}: rm victim.txt`, wrap("rm victim.txt")] as const), ...RM_SPECIAL.map((c) => [c, c] as const)];
const PROTECT_ROUTES = ROUTES.filter(([name]) =>
  ["direct", "sh -c", "eval", "script via sh", "function", "xargs sh -c", "find -exec sh -c", "timeout sh -c"].includes(name),
);
const protectCorpus = PROTECT_ROUTES.flatMap(([name, wrap]) => PROTECT_PAYLOADS.map((p) => [`${name}: ${p}`, wrap(p)] as const));

describe(`a denied command stays denied (${rmCorpus.length} commands, rule "bash rm *: deny")`, () => {
  it.each(rmCorpus)("%s", async (_label, command) => {
    const { log, after, out } = await attempt(command, RM_DENY);
    expect(after, out).toBe(cleanState);
    expect(log.denied.some((c) => c.startsWith("rm ")), out).toBe(true);
    expect(out).toContain('refused — denied by your rule "bash rm *"');
  });
});

describe(`a protected path stays unchanged (${protectCorpus.length} commands, rule "protect config/**: deny")`, () => {
  it.each(protectCorpus)("%s", async (_label, command) => {
    const { log, after, out } = await attempt(command, PROTECT);
    // Nothing under config/ changed (a copy elsewhere or a moved victim is not the point; config/ is).
    const configLines = (s: string) => s.split("\n").filter((l) => l.includes("config") || l === CONFIG.trim());
    expect(configLines(after), out).toEqual(configLines(cleanState));
    expect(after, out).toContain(CONFIG);
    expect(log.paths.length, out).toBeGreaterThan(0);
    expect(log.paths.every((p) => p.rule?.permission === "protect"), out).toBe(true);
  });
});

describe(`outside the workspace is read-only (${OUTSIDE.length} commands)`, () => {
  it.each(OUTSIDE)("%s", async (command, path) => {
    const { log, out } = await attempt(command, DEFAULT_RULES);
    const check = await sb.exec(`test -e ${path} && echo EXISTS || echo absent`);
    expect(check.stdout.trim(), out).toBe("absent");
    expect(log.paths.length, out).toBeGreaterThan(0);
    expect(log.paths.every((p) => p.message.includes("outside the workspace are read-only")), out).toBe(true);
  });
});

describe("positive controls: the same shell works when no rule forbids it", () => {
  it("rm through a script removes the file when rm is allowed", async () => {
    const { after, log } = await attempt("printf 'rm victim.txt\\n' > s.sh; sh s.sh", DEFAULT_RULES);
    expect(after).not.toContain("victim.txt\n");
    expect(log.denied).toEqual([]);
  });
  it("sed -i changes config/app.json when nothing protects it", async () => {
    const { after, log } = await attempt("sed -i s/1/2/ config/app.json", DEFAULT_RULES);
    expect(after).toContain('{"v":2}');
    expect(log.paths).toEqual([]);
  });
  it("the per-session /tmp is writable and says so in the refusal text elsewhere", async () => {
    const r = await sb.exec("echo scratch > /tmp/ok.txt && cat /tmp/ok.txt", { guard: guardFor(DEFAULT_RULES, { denied: [], paths: [] }) });
    expect(r.stdout).toBe("scratch\n");
    const refused = await sb.exec("echo x > /etc/x", { guard: guardFor(DEFAULT_RULES, { denied: [], paths: [] }) });
    expect(refused.combined).toContain("only the scratch directory /tmp (per session, not kept) is writable");
  });
  it("an external_directory deny closes /tmp too", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "external_directory", pattern: "*", action: "deny" }];
    const r = await sb.exec("echo x > /tmp/no.txt", { guard: guardFor(rules, { denied: [], paths: [] }) });
    expect(r.exitCode).not.toBe(0);
    expect(r.combined).toContain('denied by your rule "external_directory *"');
  });
  it("a later protect allow lifts the protection for one file", async () => {
    const rules: Ruleset = [...PROTECT, { permission: "protect", pattern: "config/app.json", action: "allow" }];
    const { after } = await attempt("echo '{}' > config/app.json", rules);
    expect(after).toContain("{}\n");
  });
  it("an ask rule asks once per distinct command, and a refusal stops just that command", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "rm *", action: "ask" }];
    const asked: string[] = [];
    const guard: ExecGuard = {
      ...guardFor(rules, { denied: [], paths: [] }),
      ask: async (command) => {
        asked.push(command);
        return "no";
      },
    };
    await sb.restore(clean);
    const r = await sb.exec("for i in 1 2 3; do rm victim.txt; done; echo after", { guard });
    expect(asked).toEqual(["rm victim.txt"]);
    expect(r.stdout).toContain("after");
    expect(await sb.fs.exists("/workspace/victim.txt")).toBe(true);
  });
});
