import { deflateSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { bytesToBase64Url } from "./base64";
import { decodeShare, encodeShare, shareLink, stripForShare } from "./share";
import { SessionBuilder, sampleSession } from "./test-helpers";
import type { ExportFile } from "./types";

function fileOf(s = sampleSession()): ExportFile {
  return { format: "tabcode-session", version: 1, exportedAt: 5, info: s.session, messages: s.messages };
}

/** Text that does not compress: a seeded pseudo-random alphabet soup. */
function noise(n: number): string {
  let x = 12345;
  let out = "";
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += String.fromCharCode(33 + (x % 90));
  }
  return out;
}

describe("share links", () => {
  it("round-trip: encode then decode gives the same session", () => {
    const file = fileOf();
    const data = encodeShare(file);
    // base64url data, then its Adler-32 checksum.
    expect(data).toMatch(/^[A-Za-z0-9_-]+\.[0-9a-f]{8}$/);
    const back = decodeShare(data);
    expect(back.ok && back.value.sessions).toEqual([{ info: file.info, messages: file.messages }]);
  });

  it("builds <origin>/#/share/<data>, readable from the whole link", () => {
    const s = new SessionBuilder();
    const u = s.user("hello");
    s.assistant(u, [{ type: "text", text: "hi" }]);
    const r = shareLink("https://tabcode.example/", fileOf(s.build()));
    if (!r.ok) throw new Error("expected a link");
    expect(r.url.startsWith("https://tabcode.example/#/share/")).toBe(true);
    const back = decodeShare(r.url);
    expect(back.ok && back.value.sessions[0]?.messages[1]?.parts[0]).toMatchObject({ type: "text", text: "hi" });
    expect(decodeShare(r.url.slice(r.url.indexOf("#"))).ok).toBe(true);
  });

  it("strips media data URLs and workspace files, with a placeholder naming the file", () => {
    const s = sampleSession();
    const first = s.messages[0];
    first?.parts.push({ id: "prt_t", sessionID: s.session.id, messageID: first.info.id, type: "file", mime: "text/plain", filename: "a.txt", url: "data:text/plain,hi" });
    const tool = s.messages[1]?.parts.find((p) => p.type === "tool" && p.state.status === "completed");
    if (tool?.type === "tool" && tool.state.status === "completed") tool.state.attachments = [{ mime: "image/png", url: "data:image/png;base64,AAAA" }];
    const stripped = stripForShare({ ...fileOf(s), workspace: { "a.ts": { encoding: "utf8", data: "x" } } });
    expect(stripped.workspace).toBeUndefined();
    const parts = stripped.messages[0]?.parts ?? [];
    expect(parts[1]).toEqual({ id: parts[1]?.id, sessionID: s.session.id, messageID: first?.info.id, type: "text", text: "[Attachment not included in the shared link: shot.png (image/png)]" });
    expect(parts[2]).toMatchObject({ type: "file", url: "data:text/plain,hi" });
    const t = stripped.messages[1]?.parts.find((p) => p.type === "tool" && p.state.status === "completed");
    expect(t?.type === "tool" && t.state.status === "completed" && [t.state.output, t.state.attachments]).toEqual([
      "1 failed\n[1 attachment(s) not included in the shared link]",
      undefined,
    ]);
    expect(JSON.stringify(stripped)).not.toContain("iVBORw0KGgo");
    // The original is untouched.
    expect(s.messages[0]?.parts[1]).toMatchObject({ type: "file", mime: "image/png" });
  });

  it("refuses links over the maximum length, with the size", () => {
    const s = new SessionBuilder();
    s.user(noise(30_000));
    const r = shareLink("https://t.example", fileOf(s.build()));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe("too-large");
      expect(r.size).toBeGreaterThan(16_000);
    }
    expect(shareLink("https://t.example", fileOf(s.build()), 1_000_000).ok).toBe(true);
  });

  it("rejects tampered, cut and hostile fragments with words, never throwing", () => {
    const file = fileOf();
    const data = encodeShare(file);
    const mid = Math.floor(data.length / 2);
    const flipped = `${data.slice(0, mid)}${data[mid] === "A" ? "B" : "A"}${data.slice(mid + 1)}`;
    for (const bad of [flipped, data.slice(0, mid), `${data}!`, "", "#/share/", "%%%", bytesToBase64Url(strToU8("plain text"))]) {
      const r = decodeShare(bad);
      expect(r.ok).toBe(false);
      expect(r.ok ? "" : r.error).toMatch(/^(The share link|The shared session)/);
    }
    // A change that still decompresses into a valid session (one letter of its text) is caught by the checksum.
    const changed = structuredClone(file);
    const part = changed.messages.flatMap((m) => m.parts).find((p) => p.type === "text");
    if (part?.type === "text") part.text = `${part.text}!`;
    expect(part).toBeDefined();
    const edited = encodeShare(changed).split(".")[0];
    const sum = data.split(".")[1];
    expect(decodeShare(`${edited}.${sum}`)).toEqual({ ok: false, error: "The share link is damaged: its data does not match its checksum (was it cut or edited?)." });
    // Links made before the checksum (data alone) still open.
    expect(decodeShare(data.split(".")[0] ?? "").ok).toBe(true);
    const notJson = bytesToBase64Url(deflateSync(strToU8("not json")));
    expect(decodeShare(notJson)).toEqual({ ok: false, error: expect.stringMatching(/^The link's data is not valid JSON: it has a syntax error/) });
    // A link whose data is JSON but no session export says so about the link, never "file".
    const notExport = decodeShare(bytesToBase64Url(deflateSync(strToU8(JSON.stringify({ name: "pkg", version: "1.0.0" })))));
    expect(notExport).toEqual({ ok: false, error: expect.stringMatching(/^The link's data is not a tabcode or OpenCode session export/) });
    expect(notExport.ok ? "" : notExport.error).not.toMatch(/file/i);
    // A field error keeps its place in the session.
    const badField = { ...fileOf(), info: { ...fileOf().info, title: 5 } };
    expect(decodeShare(bytesToBase64Url(deflateSync(strToU8(JSON.stringify(badField)))))).toEqual({
      ok: false,
      error: expect.stringMatching(/^The shared session is not valid: .*title/),
    });
    const archive = { format: "tabcode-archive", version: 1, exportedAt: 1, sessions: [fileOf(), fileOf()] };
    expect(decodeShare(bytesToBase64Url(deflateSync(strToU8(JSON.stringify(archive)))))).toEqual({
      ok: false,
      error: "A share link must hold exactly one session.",
    });
  });

  it("stops inflating a decompression bomb at the size limit", () => {
    const bomb = bytesToBase64Url(deflateSync(new Uint8Array(4 * 1024 * 1024), { level: 9 }));
    expect(bomb.length).toBeLessThan(8_000);
    expect(decodeShare(bomb, { maxBytes: 1024 * 1024 })).toEqual({ ok: false, error: "The shared session is too large to open." });
    // Under the limit, the same data is merely not a session.
    expect(decodeShare(bomb, { maxBytes: 8 * 1024 * 1024 })).toEqual({ ok: false, error: expect.stringMatching(/^The link's data is not valid JSON/) });
  });
});
