/**
 * A fuzzed import corpus (seeded, so failures reproduce): every input is either
 * rejected with a message or imported cleanly; parsing never throws and a
 * rejection leaves the store exactly as it was.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../testing/memory-store";
import { Message, Part, Session } from "../schema";
import { importBundle, parseImport, parseImportBytes } from "./import";
import { serializeExport } from "./json";
import { dumpStore, SessionBuilder, sampleSession, storeWith } from "./test-helpers";
import type { ExportFile, ImportBundle, Result } from "./types";
import { mulberry32 as prng } from "../../testing/prng";


function fileOf(s = sampleSession()): ExportFile {
  return { format: "tabcode-session", version: 1, exportedAt: 1, info: s.session, messages: s.messages };
}

/** Parses, then imports into a store holding one other session; checks the invariants. */
async function check(input: string | Uint8Array): Promise<Result<ImportBundle>> {
  let parsed: Result<ImportBundle> | undefined;
  expect(() => {
    parsed = typeof input === "string" ? parseImport(input) : parseImportBytes(input);
  }).not.toThrow();
  if (!parsed) throw new Error("unreachable");
  const store = await storeWith(sampleSession());
  const before = await dumpStore(store);
  if (!parsed.ok) {
    expect(parsed.error).toMatch(/\S/);
    expect(parsed.error.length).toBeLessThan(600);
    expect(await dumpStore(store)).toBe(before);
    return parsed;
  }
  const written = await importBundle(store, parsed.value);
  expect(written.ok).toBe(true);
  if (written.ok)
    for (const id of written.value.sessionIDs) {
      expect(Session.safeParse(await store.getSession(id)).success).toBe(true);
      for (const m of await store.messages(id)) {
        expect(Message.safeParse(m.info).success).toBe(true);
        for (const p of m.parts) expect(Part.safeParse(p).success).toBe(true);
      }
    }
  return parsed;
}

/** Every [path, value] of a JSON tree. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) for (const [i, x] of v.entries()) paths(x, [...at, i], out);
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let v = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) v = v[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (last !== undefined) v[last] = value;
}

describe("import fuzz corpus", () => {
  const valid = serializeExport(fileOf());

  it("random bytes and random text", async () => {
    const rnd = prng(1);
    for (let i = 0; i < 150; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(rnd() * 600) }, () => Math.floor(rnd() * 256));
      if (i % 3 === 0 && bytes.length > 4) bytes.set([0x50, 0x4b, 3, 4]); // zip-looking garbage
      expect((await check(bytes)).ok).toBe(false);
      expect((await check(String.fromCharCode(...bytes))).ok).toBe(false);
    }
  });

  it("a valid export truncated at every 23rd byte", async () => {
    let accepted = 0;
    for (let n = 0; n < valid.length; n += 23) if ((await check(valid.slice(0, n))).ok) accepted++;
    expect(accepted).toBe(0);
    expect((await check(valid)).ok).toBe(true);
  });

  it("wrong types at random paths", async () => {
    const rnd = prng(7);
    const all = paths(JSON.parse(valid)).filter((p) => p.length > 0);
    const junk = [null, 0, -1, 1e308, "", "x", true, [], {}, [1, "a"], { status: "done" }, "ses_x", "<script>alert(1)</script>"];
    let accepted = 0;
    for (let i = 0; i < 400; i++) {
      const doc = JSON.parse(valid);
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
        const path = all[Math.floor(rnd() * all.length)] ?? [];
        try {
          setAt(doc, path, junk[Math.floor(rnd() * junk.length)]);
        } catch {
          // an earlier mutation removed the parent of this path
        }
      }
      if ((await check(JSON.stringify(doc))).ok) accepted++;
    }
    expect(accepted).toBeGreaterThan(0); // some mutations only touch free-form fields
    expect(accepted).toBeLessThan(400);
  });

  it("huge strings, deep nesting, 10,000 parts", async () => {
    const s = sampleSession();
    const text = s.messages[0]?.parts[0];
    if (text?.type === "text") text.text = "A".repeat(5_000_000);
    expect((await check(JSON.stringify(fileOf(s)))).ok).toBe(true);

    const deep = (depth: number) => {
      const d = sampleSession();
      const tool = d.messages[1]?.parts.find((p) => p.type === "tool");
      if (tool?.type === "tool") tool.state.input = { deep: "@DEEP@" };
      return JSON.stringify(fileOf(d)).replace('"@DEEP@"', `${'{"d":'.repeat(depth)}"leaf"${"}".repeat(depth)}`);
    };
    expect((await check(deep(50))).ok).toBe(true);
    expect(await check(deep(5000))).toEqual({ ok: false, error: "The file is nested too deeply: more than 64 levels of objects and arrays." });

    const b = new SessionBuilder();
    const u = b.user("many parts");
    b.assistant(u, Array.from({ length: 10_000 }, (_, i) => ({ type: "text" as const, text: `part ${i}` })));
    const many = await check(JSON.stringify(fileOf(b.build())));
    expect(many.ok && many.value.sessions[0]?.messages[1]?.parts.length).toBe(10_000);
  });

  it("duplicate ids within the file and script payloads in text", async () => {
    const s = sampleSession();
    const dupe = JSON.parse(JSON.stringify(fileOf(s)));
    dupe.messages[3].info.id = dupe.messages[1].info.id;
    expect((await check(JSON.stringify(dupe))).ok).toBe(false);

    const x = sampleSession();
    const payload = `<script>alert(1)</script><img src=x onerror=alert(1)>"'\u2028\u0000`;
    x.session.title = payload;
    for (const m of x.messages) for (const p of m.parts) if (p.type === "text") p.text = payload;
    const r = await check(JSON.stringify(fileOf(x)));
    expect(r.ok && r.value.sessions[0]?.info.title).toBe(payload);
  });

  it("random archives built from valid and broken sessions", async () => {
    const rnd = prng(99);
    const outcomes = { ok: 0, rejected: 0 };
    for (let i = 0; i < 40; i++) {
      const sessions: unknown[] = [];
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
        const f: Record<string, unknown> = JSON.parse(JSON.stringify(fileOf()));
        if (rnd() < 0.3) delete f.info;
        if (rnd() < 0.2) f.messages = [{ info: 1, parts: [] }];
        sessions.push(f);
      }
      if (rnd() < 0.2) sessions.push(sessions[0]);
      const r = await check(JSON.stringify({ format: "tabcode-archive", version: 1, exportedAt: 1, sessions }));
      outcomes[r.ok ? "ok" : "rejected"]++;
    }
    expect(outcomes.ok).toBeGreaterThan(3);
    expect(outcomes.rejected).toBeGreaterThan(3);
  });

  it("a store is untouched by every rejection even when it already holds the same session", async () => {
    const s = sampleSession();
    const store = new MemoryStore();
    await store.importSession(s.session, s.messages);
    const before = await dumpStore(store);
    const broken = JSON.parse(serializeExport(fileOf(s)));
    broken.messages[2].parts[1].type = 42;
    const r = parseImport(JSON.stringify(broken));
    expect(r.ok).toBe(false);
    expect(await dumpStore(store)).toBe(before);
  });
});
