import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { serializeExport } from "./json";
import { parseImport, parseImportBytes } from "./import";
import { sampleSession } from "./test-helpers";
import { type ExportFile, MAX_IMPORT_DEPTH } from "./types";

/** What a rejected non-export adds: what Import takes, and where other agents' histories go. */
const TAKES = "Import takes tabcode and OpenCode exports; for Claude Code, Codex CLI, Gemini CLI or an opencode.db, use Import history.";

function fileOf(over: Partial<ExportFile> = {}): ExportFile {
  const s = sampleSession();
  return { format: "tabcode-session", version: 1, exportedAt: 1, info: s.session, messages: s.messages, ...over };
}

/** A JSON copy of an export, to break on purpose. */
function mutable(file: ExportFile = fileOf()): { messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[]; [k: string]: unknown } {
  return JSON.parse(JSON.stringify(file));
}

function errorOf(value: unknown): string {
  const r = parseImport(typeof value === "string" ? value : JSON.stringify(value));
  if (r.ok) throw new Error("expected a rejection");
  return r.error;
}

describe("parseImport accepts", () => {
  it("our session export, validated into a bundle", () => {
    const file = fileOf();
    const r = parseImport(serializeExport(file));
    expect(r).toEqual({ ok: true, value: { source: "tabcode-session", sessions: [{ info: file.info, messages: file.messages }], warnings: [] } });
  });

  it("an export written before the session row counted its unpriced steps: counted from its messages; a count in the file is kept", () => {
    const file = mutable();
    delete (file.info as Record<string, unknown>).unpriced;
    const finish = file.messages.flatMap((m) => m.parts).find((p) => p.type === "step-finish");
    if (!finish) throw new Error("sample has no step");
    Object.assign(finish, { cost: 0, priceUnknown: true });
    const old = parseImport(JSON.stringify(file));
    expect(old.ok && old.value.sessions[0]?.info.unpriced).toBe(1);
    (file.info as Record<string, unknown>).unpriced = 4;
    const kept = parseImport(JSON.stringify(file));
    expect(kept.ok && kept.value.sessions[0]?.info.unpriced).toBe(4);
    // A count that is no count is dropped and counted again, never a reason to refuse the file.
    (file.info as Record<string, unknown>).unpriced = -2.5;
    const bad = parseImport(JSON.stringify(file));
    expect(bad.ok && bad.value.sessions[0]?.info.unpriced).toBe(1);
  });

  it("our archive", () => {
    const archive = { format: "tabcode-archive", version: 1, exportedAt: 1, sessions: [fileOf(), fileOf()] };
    const r = parseImport(JSON.stringify(archive));
    expect(r.ok && r.value.source).toBe("tabcode-archive");
    expect(r.ok && r.value.sessions.length).toBe(2);
  });

  it("UTF-8 bytes with a byte-order mark", () => {
    const bytes = new TextEncoder().encode(`\uFEFF${serializeExport(fileOf())}`);
    expect(parseImportBytes(bytes).ok).toBe(true);
  });

  it("drops allow rules (an imported file must not grant permissions) and keeps ask/deny", () => {
    const file = fileOf();
    file.info.permission = [
      { permission: "bash", pattern: "*", action: "allow" },
      { permission: "edit", pattern: "*.env", action: "deny" },
    ];
    const r = parseImport(JSON.stringify(file));
    expect(r.ok && r.value.sessions[0]?.info.permission).toEqual([{ permission: "edit", pattern: "*.env", action: "deny" }]);
    expect(r.ok && r.value.warnings.join()).toMatch(/allow/);
  });
});

describe("parseImport rejects with the field path and the reason", () => {
  it("a tool state with an unknown status", () => {
    const f = mutable();
    const part = f.messages[1]?.parts[3] as { state: { status: string } };
    part.state.status = "done";
    expect(errorOf(f)).toBe('messages[1].parts[3].state.status: expected one of pending|running|completed|error, got "done"');
  });

  it("an unknown part type", () => {
    const f = mutable();
    (f.messages[0]?.parts[0] as Record<string, unknown>).type = "video";
    expect(errorOf(f)).toMatch(/^messages\[0\]\.parts\[0\]\.type: expected one of text\|reasoning\|file\|tool.*, got "video"$/);
  });

  it("a missing field, a wrong type, a wrong prefix", () => {
    const a = mutable();
    delete (a.info as Record<string, unknown>).title;
    expect(errorOf(a)).toBe("info.title: required field is missing (expected string)");
    const b = mutable();
    (b.messages[2]?.info as Record<string, unknown>).cost = "free";
    expect(errorOf(b)).toBe('messages[2].info.cost: expected number, got a string');
    const c = mutable();
    (c.messages[0]?.parts[0] as Record<string, unknown>).id = "msg_x";
    expect(errorOf(c)).toBe('messages[0].parts[0].id: must start with "prt_", got "msg_x"');
  });

  it("rows that do not belong where they sit", () => {
    const a = mutable();
    (a.messages[1]?.info as Record<string, unknown>).sessionID = "ses_other";
    expect(errorOf(a)).toMatch(/^messages\[1\]\.info\.sessionID: "ses_other" does not match the session id/);
    const b = mutable();
    (b.messages[1]?.parts[0] as Record<string, unknown>).messageID = "msg_other";
    expect(errorOf(b)).toMatch(/^messages\[1\]\.parts\[0\]\.messageID: "msg_other" does not match its message id/);
    const c = mutable();
    (c.messages[1]?.info as Record<string, unknown>).parentID = "msg_nowhere";
    expect(errorOf(c)).toBe('messages[1].info.parentID: "msg_nowhere" is not a user message earlier in this session');
  });

  it("duplicate ids within the file", () => {
    const a = mutable();
    const first = a.messages[0]?.parts[0];
    if (first) a.messages[1]?.parts.push({ ...first, messageID: a.messages[1]?.info.id });
    expect(errorOf(a)).toMatch(/^messages\[1\]\.parts\[6\]\.id: duplicate part id "prt_.*" \(it appears earlier in the file\)$/);
    const f = fileOf();
    const archive = { format: "tabcode-archive", version: 1, exportedAt: 1, sessions: [f, f] };
    expect(errorOf(archive)).toMatch(/^sessions\[1\]\.info\.id: duplicate session id/);
  });

  it("wrong envelopes", () => {
    expect(errorOf("")).toBe("The file is empty.");
    expect(errorOf("{not json")).toMatch(/^The file is not valid JSON: it has a syntax error( near character \d+)? or breaks off before its end\.$/);
    expect(errorOf([1, 2])).toBe("This file is not a tabcode or OpenCode session export.");
    expect(errorOf({ ...fileOf(), version: 2 })).toBe("version: unsupported version 2; this app reads version 1");
    expect(errorOf({ ...fileOf(), format: "zip-bomb" })).toBe('This file is not a tabcode or OpenCode session export: its "format" is "zip-bomb", where a tabcode export says "tabcode-session" or "tabcode-archive".');
    expect(errorOf({ format: "tabcode-archive", version: 1, sessions: [{ ...fileOf(), format: "zip-bomb" }] })).toBe('sessions[0].format: unknown format "zip-bomb"; expected "tabcode-session"');
    expect(errorOf({ ...fileOf(), messages: "none" })).toBe("messages: expected an array of {info, parts}, got a string");
    expect(errorOf({ format: "tabcode-archive", version: 1, sessions: [3] })).toBe("sessions[0]: expected a session export object, got a number");
    expect(errorOf({ ...fileOf(), workspace: { "../etc/passwd": { encoding: "utf8", data: "" } } })).toMatch(/^workspace\["\.\.\/etc\/passwd"\]: not an acceptable file path/);
    expect(errorOf({ ...fileOf(), workspace: { "a.bin": { encoding: "base64", data: "@@" } } })).toBe('workspace["a.bin"].data: not valid base64');
  });

  it("files over the size, depth and part limits, in words", () => {
    const big = `{"info": "${"x".repeat(50 * 1024 * 1024)}"}`;
    expect(errorOf(big)).toMatch(/too large: more than 50\.0 MB/);
    const multibyte = `"${"é".repeat(26 * 1024 * 1024)}"`; // 26 Mi chars, 52 MiB of UTF-8
    expect(errorOf(multibyte)).toMatch(/too large/);
    const deep = `${"[".repeat(MAX_IMPORT_DEPTH + 1)}${"]".repeat(MAX_IMPORT_DEPTH + 1)}`;
    expect(errorOf(deep)).toBe("The file is nested too deeply: more than 64 levels of objects and arrays.");
    expect(errorOf(`{"a":"${"[".repeat(500)}"}`)).toMatch(/not a tabcode or OpenCode session export/); // brackets inside strings do not count
    const f = mutable();
    const others = f.messages.slice(1).reduce((n, m) => n + m.parts.length, 0);
    const first = f.messages[0];
    if (first) first.parts = Array.from({ length: 200_001 - others }, () => ({}));
    expect(errorOf(f)).toBe("The file has too many parts: 200,001 (at most 200,000 can be imported).");
  });

  it("files that are no export at all say so and what Import takes; a cut export keeps the parser's words", () => {
    const fileError = (text: string) => {
      const r = parseImportBytes(strToU8(text));
      return r.ok ? "accepted" : r.error;
    };
    // A package.json, a text file: the user learns what the file is not and where other histories go.
    expect(fileError(JSON.stringify({ name: "my-app", version: "1.0.0", scripts: { test: "vitest" } }))).toBe(`This file is not a tabcode or OpenCode session export. ${TAKES}`);
    expect(fileError("Meeting notes\n- ship it\n")).toBe(`This file is not a tabcode or OpenCode session export: it is not JSON. ${TAKES}`);
    expect(fileError("{ not json, just braces }")).toBe(`This file is not a tabcode or OpenCode session export: it is not JSON. ${TAKES}`);
    expect(fileError('{"format": "prettier"}')).toMatch(/^This file is not a tabcode or OpenCode session export: its "format" is "prettier".*use Import history\.$/);
    // An export cut short (or broken by hand) is still told where its JSON breaks, and a broken field is named.
    const cut = serializeExport(fileOf()).slice(0, 300);
    expect(fileError(cut)).toMatch(/^The file is not valid JSON: it has a syntax error( near character \d+)? or breaks off before its end\.$/);
    expect(fileError('{"info": {"id": 5}, "messages": [')).toMatch(/^The file is not valid JSON/);
    expect(fileError(JSON.stringify({ ...fileOf(), messages: "none" }))).toBe("messages: expected an array of {info, parts}, got a string");
    expect(fileError("")).toBe("The file is empty.");
    // In a zip or an archive, the entry is named.
    expect(errorOf({ format: "tabcode-archive", version: 1, sessions: [{ hello: 1 }] })).toMatch(/^sessions\[0\]: not a tabcode or OpenCode session export \(no "format"/);
    const z = parseImportBytes(zipSync({ "notes.json": strToU8('{"hello": 1}') }));
    expect(z.ok ? "" : z.error).toMatch(/^notes\.json: not a tabcode or OpenCode session export/);
  });

  it("bytes that are neither UTF-8 nor a zip, and damaged zips", () => {
    const r = parseImportBytes(new Uint8Array([0xc3, 0x28, 0xa0, 0xa1]));
    expect(r).toEqual({ ok: false, error: `This file is not a tabcode or OpenCode session export: it is not text, nor a zip made by tabcode. ${TAKES}` });
    // Through Import history (which is where other agents' files go), without the pointer to it.
    expect(parseImportBytes(new Uint8Array([0xc3, 0x28]), { hint: false })).toEqual({ ok: false, error: "This file is not a tabcode or OpenCode session export: it is not text, nor a zip made by tabcode." });
    const prettier = parseImportBytes(strToU8('{"format": "prettier"}'), { hint: false });
    expect(prettier.ok ? "" : prettier.error).not.toContain("Import history");
    const z = parseImportBytes(new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]));
    expect(z.ok ? "" : z.error).toMatch(/^The zip file is damaged/);
  });
});

describe("parseImport degrades unreadable attachments", () => {
  it("a file part whose url is not a URL becomes a note, with a warning, instead of breaking every later request", () => {
    const raw = mutable();
    const user = raw.messages.find((m) => m.info.role === "user");
    if (!user) throw new Error("fixture has a user message");
    const ids = { sessionID: user.info.sessionID, messageID: user.info.id };
    user.parts.push({ id: "prt_zzzzzzzzzzzzzzzzzzzzzzzzzz", ...ids, type: "file", mime: "image/png", filename: "shot.png", url: "not a url" });
    const r = parseImport(JSON.stringify(raw));
    if (!r.ok) throw new Error(r.error);
    const parts = r.value.sessions[0]?.messages.find((m) => m.info.id === user.info.id)?.parts ?? [];
    expect(parts.at(-1)).toMatchObject({ type: "text", text: "[Attached image/png: shot.png (its data could not be read)]", synthetic: true });
    expect(r.value.warnings.join("\n")).toMatch(/shot\.png.*no readable data/);
  });
});
