import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ascendingId } from "../ids";
import type { Part, Session } from "../schema";
import { parseImport, parseImportBytes } from "./import";
import { exportAll, exportAllZip, exportFileName, exportSession, serializeExport } from "./json";
import { sampleSession, storeWith } from "./test-helpers";

const PLANTED = "sk-PLANTED-SECRET-0123456789abcdef";

describe("exportSession", () => {
  it("writes OpenCode's shape plus our format marker, rows in order", async () => {
    const s = sampleSession();
    const store = await storeWith(s);
    const file = await exportSession(store, s.session.id, { now: 42 });
    expect(file).toMatchObject({ format: "tabcode-session", version: 1, exportedAt: 42, info: { id: s.session.id } });
    expect(file?.messages.map((m) => m.info.id)).toEqual(s.messages.map((m) => m.info.id));
    expect(file?.messages).toEqual(s.messages);
    expect(file?.workspace).toBeUndefined();
  });

  it("returns undefined for a missing session", async () => {
    expect(await exportSession(await storeWith(), "ses_missing")).toBeUndefined();
  });

  it("never lets a field the schema does not know into the file (no apiKey, no secrets)", async () => {
    const s = sampleSession();
    const store = await storeWith();
    const session = { ...s.session, apiKey: PLANTED, settings: { openaiKey: PLANTED } } as Session;
    const plant = <T extends object>(row: T): T => Object.assign({}, row, { apiKey: PLANTED });
    const messages = s.messages.map((m) => ({ info: plant(m.info), parts: m.parts.map((p) => plant<Part>(p)) }));
    await store.importSession(session, messages);
    const file = await exportSession(store, s.session.id);
    const text = serializeExport(file ?? ({} as never));
    expect(text).toContain(s.session.title);
    expect(text).not.toContain(PLANTED);
    expect(text).not.toMatch(/apiKey|openaiKey/);
    const all = serializeExport(await exportAll(store));
    expect(all).not.toContain(PLANTED);
  });

  it("carries workspace files as utf8 text or base64 bytes", async () => {
    const s = sampleSession();
    const file = await exportSession(await storeWith(s), s.session.id, {
      workspace: { "src/a.ts": "export {};\n", "img.bin": new Uint8Array([0, 255, 1]) },
    });
    expect(file?.workspace).toEqual({
      "src/a.ts": { encoding: "utf8", data: "export {};\n" },
      "img.bin": { encoding: "base64", data: "AP8B" },
    });
    const back = parseImport(serializeExport(file ?? ({} as never)));
    expect(back.ok && back.value.sessions[0]?.workspace).toEqual(file?.workspace);
  });

  it("carries the workspace's text files as text, as read from the sandbox (bytes): the redaction pass must see them", async () => {
    const s = sampleSession();
    const enc = new TextEncoder();
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const file = await exportSession(await storeWith(s), s.session.id, {
      workspace: { ".env": enc.encode("KEY=1\n"), "bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), "latin1.txt": latin1, "nul.txt": new Uint8Array([0x61, 0, 0x62]) },
    });
    expect(file?.workspace).toEqual({
      ".env": { encoding: "utf8", data: "KEY=1\n" },
      "bom.txt": { encoding: "utf8", data: "\ufeffa" },
      // Not UTF-8, or not text: the bytes exactly.
      "latin1.txt": { encoding: "base64", data: "Y2Fm6Qo=" },
      "nul.txt": { encoding: "base64", data: "YQBi" },
    });
    // Text carried as text comes back as the same bytes (the BOM included).
    expect(enc.encode(file?.workspace?.["bom.txt"]?.data)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
  });
});

describe("exportAll / exportAllZip", () => {
  it("archives every session, archived and child sessions included, oldest first", async () => {
    const a = sampleSession({ time: { created: 1000, updated: 1000 } });
    const b = sampleSession({ time: { created: 2000, updated: 2000, archived: 2500 } });
    const c = sampleSession({ time: { created: 3000, updated: 3000 }, parentID: a.session.id });
    const store = await storeWith(c, a, b);
    const archive = await exportAll(store, { now: 7 });
    expect(archive).toMatchObject({ format: "tabcode-archive", version: 1, exportedAt: 7 });
    expect(archive.sessions.map((s) => s.info.id)).toEqual([a.session.id, b.session.id, c.session.id]);
    const parsed = parseImport(serializeExport(archive));
    expect(parsed.ok && parsed.value.sessions.length).toBe(3);
  });

  it("zips one JSON export per session, and the zip imports back", async () => {
    const a = sampleSession();
    const b = sampleSession();
    const zip = await exportAllZip(await storeWith(a, b));
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual([`${a.session.id}.json`, `${b.session.id}.json`].sort());
    const one = JSON.parse(strFromU8(files[`${a.session.id}.json`] ?? new Uint8Array()));
    expect(one).toMatchObject({ format: "tabcode-session", info: { id: a.session.id } });
    const back = parseImportBytes(zip);
    expect(back.ok).toBe(true);
    if (back.ok) {
      expect(back.value.source).toBe("tabcode-zip");
      expect(back.value.sessions.map((s) => s.info.id).sort()).toEqual([a.session.id, b.session.id].sort());
    }
  });
});

describe("exportFileName", () => {
  it("slugs the title and keeps the id", () => {
    const id = ascendingId("ses");
    expect(exportFileName({ id, title: "Fix <the> Ümlaut bug!" }, "md")).toBe(`fix-the-umlaut-bug-${id}.md`);
    expect(exportFileName({ id, title: "???" }, "json")).toBe(`${id}.json`);
    // Two exports of one format never share a name.
    expect(exportFileName({ id, title: "Notes" }, "json", "with-files")).toBe(`notes-${id}.with-files.json`);
  });
});
