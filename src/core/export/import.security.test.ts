/**
 * Imports are untrusted: a generated corpus of mutated files (seeded, so a
 * failure reproduces). For every one: parsing never throws; a rejection is a
 * sentence a user understands (never an exception's text) and writes nothing;
 * an accepted file imports into a store that already holds the original (so
 * it lands as a copy), and no tool call is ever imported as running or pending.
 */
import { zipSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../testing/memory-store";
import { mulberry32 as prng } from "../../testing/prng";
import type { Part } from "../schema";
import { importBundle, parseImportBytes } from "./import";
import { serializeExport } from "./json";
import { dumpStore, sampleSession } from "./test-helpers";
import type { ExportFile } from "./types";

const EXCEPTION_TEXT = /TypeError|ReferenceError|SyntaxError|RangeError|Cannot read prop|undefined is not|is not a function|\bat \S+ \(|\[object Object\]|Unexpected token|JSON\.parse|invalid zip|unexpected EOF/i;

const original = sampleSession();
const fileOf = (): ExportFile => ({ format: "tabcode-session", version: 1, exportedAt: 1, info: original.session, messages: original.messages });
const valid = serializeExport(fileOf());
const enc = new TextEncoder();

const outcomes = { accepted: 0, rejected: 0, interruptedTools: 0 };

async function check(bytes: Uint8Array): Promise<"ok" | "rejected"> {
  const store = new MemoryStore();
  await store.importSession(original.session, original.messages);
  const before = await dumpStore(store);
  const originalRows = await store.messages(original.session.id);
  let parsed: ReturnType<typeof parseImportBytes> | undefined;
  expect(() => {
    parsed = parseImportBytes(bytes);
  }).not.toThrow();
  if (!parsed) throw new Error("unreachable");
  if (!parsed.ok) {
    outcomes.rejected++;
    expect(parsed.error).toMatch(/^\S/);
    expect(parsed.error.length).toBeLessThan(600);
    expect(parsed.error).not.toMatch(EXCEPTION_TEXT);
    expect(await dumpStore(store)).toBe(before);
    return "rejected";
  }
  const written = await importBundle(store, parsed.value);
  if (!written.ok) throw new Error(`accepted but not written: ${written.error}`);
  outcomes.accepted++;
  for (const id of written.value.sessionIDs) {
    expect(written.value.copied, "the original is in the store, so the import is a copy").toContain(id);
    for (const m of await store.messages(id))
      for (const p of m.parts)
        if (p.type === "tool") {
          expect(["running", "pending"]).not.toContain(p.state.status);
          if (p.state.status === "error" && p.state.metadata?.interrupted) outcomes.interruptedTools++;
        }
  }
  // The session already there is untouched by its copy.
  expect(await store.messages(original.session.id)).toEqual(originalRows);
  return "ok";
}

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
  if (last === undefined) return;
  if (value === DELETE) delete v[last];
  else v[last] = value;
}

const DELETE = Symbol("delete");
const JUNK: unknown[] = [DELETE, null, 0, -1, 1e308, Number.MAX_SAFE_INTEGER, "", "x", true, [], {}, [1, "a"], { status: "running" }, "ses_x", "msg_zzz", "<img src=x onerror=alert(1)>", "\u0000", "a".repeat(10_000)];

const rnd = prng(18);
const all = paths(JSON.parse(valid)).filter((p) => p.length > 0);
const mutated: Array<[string, Uint8Array]> = [];
for (let i = 0; i < 220; i++) {
  const doc = JSON.parse(valid);
  const what: string[] = [];
  for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
    const path = all[Math.floor(rnd() * all.length)] ?? [];
    const value = JUNK[Math.floor(rnd() * JUNK.length)];
    try {
      setAt(doc, path, value);
      what.push(`${path.join(".")}=${typeof value === "symbol" ? "deleted" : JSON.stringify(value)?.slice(0, 20)}`);
    } catch {
      // an earlier mutation removed this path's parent
    }
  }
  mutated.push([`mutation ${i}: ${what.join(", ")}`, enc.encode(JSON.stringify(doc))]);
}

const toolStates: Array<[string, Uint8Array]> = [];
const STATES = [
  (start: number) => ({ status: "running", input: { command: "npm test" }, time: { start } }),
  (start: number) => ({ status: "running", input: {}, title: "t", metadata: { output: "half" }, time: { start } }),
  () => ({ status: "pending", input: {}, raw: '{"comm' }),
  () => ({ status: "pending", input: { a: 1 }, raw: "" }),
];
for (let i = 0; i < 60; i++) {
  const doc = JSON.parse(valid);
  const tools: Part[] = doc.messages.flatMap((m: { parts: Part[] }) => m.parts).filter((p: Part) => p.type === "tool");
  const t = tools[i % tools.length];
  const state = STATES[i % STATES.length];
  if (t?.type === "tool" && state) (t as { state: unknown }).state = state(1_700_000_000_000 + i);
  toolStates.push([`tool state ${i % STATES.length} on call ${i % tools.length}`, enc.encode(JSON.stringify(doc))]);
}

const truncated: Array<[string, Uint8Array]> = [];
for (let n = 1; n < valid.length; n += Math.ceil(valid.length / 40)) truncated.push([`truncated at ${n}`, enc.encode(valid.slice(0, n))]);

const zip = zipSync({ "a.json": strToU8(valid) });
const zips: Array<[string, Uint8Array]> = [
  ["a valid zip", zip],
  ["an empty zip", zipSync({})],
  ["a zip of text files only", zipSync({ "notes.txt": strToU8("hello") })],
  ["a zip with a broken json entry", zipSync({ "a.json": strToU8(valid.slice(0, 100)) })],
  ...Array.from({ length: 16 }, (_, i): [string, Uint8Array] => {
    const b = zip.slice(0, Math.floor((zip.length * (i + 1)) / 17));
    return [`a zip cut at ${b.length} bytes`, b];
  }),
  ...Array.from({ length: 16 }, (_, i): [string, Uint8Array] => {
    const b = zip.slice();
    const at = 30 + ((i * 37) % (b.length - 30));
    b[at] = (b[at] ?? 0) ^ 0xff;
    return [`a zip with byte ${at} flipped`, b];
  }),
];

const archives: Array<[string, Uint8Array]> = [
  ["an empty archive", enc.encode(JSON.stringify({ format: "tabcode-archive", version: 1, exportedAt: 1, sessions: [] }))],
  ["an archive of one", enc.encode(JSON.stringify({ format: "tabcode-archive", version: 1, exportedAt: 1, sessions: [fileOf()] }))],
  ["an empty file", new Uint8Array()],
  ["whitespace", enc.encode("  \n ")],
  ["not UTF-8", Uint8Array.from([0xff, 0xfe, 0x00, 0x7b])],
];

const corpus = [...mutated, ...toolStates, ...truncated, ...zips, ...archives];

describe(`import security corpus (${corpus.length} files)`, () => {
  it.each(corpus)("%s", async (_label, bytes) => {
    await check(bytes);
  });

  it("tallies: every running/pending tool call was imported as interrupted, and the edge cases say what they are", async () => {
    expect(outcomes.accepted + outcomes.rejected).toBe(corpus.length);
    expect(outcomes.accepted).toBeGreaterThan(60);
    expect(outcomes.interruptedTools).toBeGreaterThanOrEqual(60);
    const err = (b: Uint8Array) => {
      const r = parseImportBytes(b);
      return r.ok ? "accepted" : r.error;
    };
    expect(err(archives[0]?.[1] ?? new Uint8Array())).toBe("The archive holds no sessions: there is nothing to import.");
    expect(err(zipSync({}))).toMatch(/^The zip (file is damaged|holds no \.json session files)/);
    expect(err(zip.slice(0, 40))).toBe("The zip file is damaged or incomplete: it cannot be unpacked.");
  });
});
