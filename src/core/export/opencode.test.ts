import { describe, expect, it } from "vitest";
import fixture from "../../../e2e/fixtures/opencode-export.json?raw";
import { isTabcodeId } from "../ids";
import { MemoryStore } from "../../testing/memory-store";
import { importBundle, parseImport, parseImportBytes } from "./import";

const SESSION = "ses_4f1c2a9b7ffeQz8Kp2LmN4vXyA";

describe("OpenCode export files", () => {
  it("parse: fields mapped, unknown ones dropped, session re-homed, totals computed", () => {
    const r = parseImport(fixture);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.source).toBe("opencode");
    expect(r.value.warnings).toEqual([]);
    const [s] = r.value.sessions;
    expect(s?.info).toEqual({
      id: SESSION,
      title: "Fix the failing add() test",
      directory: "/workspace",
      version: "1.2.6",
      time: { created: 1767225600000, updated: 1767225694000 },
      tokens: { input: 5100, output: 1000, reasoning: 300, cache: { read: 5000, write: 0 } },
      cost: 0.0334,
      unpriced: 0,
    });
    const [user, a1, a2] = s?.messages ?? [];
    expect(user?.info).toEqual({
      id: "msg_b0e3d5a14001Ab3Cd4Ef5Gh6Ij",
      sessionID: SESSION,
      role: "user",
      time: { created: 1767225600000 },
      agent: "build",
      model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" },
    });
    expect(a1?.info).not.toHaveProperty("mode");
    expect(a1?.info).not.toHaveProperty("path");
    expect(a1?.info).not.toHaveProperty("variant");
    expect(a1?.parts.map((p) => p.type)).toEqual(["step-start", "reasoning", "text", "tool", "tool", "step-finish"]);
    expect(a1?.parts.map((p) => (p.type === "tool" ? p.state.status : undefined)).filter(Boolean)).toEqual(["completed", "error"]);
    expect(a2?.parts.map((p) => p.type)).toEqual(["step-start", "tool", "text", "step-finish", "patch"]);
    expect(JSON.stringify(r.value)).not.toMatch(/projectID|slug|"todos"|"path"|"mode"/);
  });

  it("imports with fresh ids of ours in the file's order, links remapped", async () => {
    const r = parseImport(fixture);
    if (!r.ok) throw new Error(r.error);
    const store = new MemoryStore();
    const w = await importBundle(store, r.value);
    expect(w).toEqual({ ok: true, value: { sessionIDs: [SESSION], copied: [] } });
    const msgs = await store.messages(SESSION);
    expect(msgs.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant"]);
    const userID = msgs[0]?.info.id;
    for (const m of msgs) {
      expect(isTabcodeId(m.info.id)).toBe(true);
      if (m.info.role === "assistant") expect(m.info.parentID).toBe(userID);
      for (const p of m.parts) expect(isTabcodeId(p.id) && p.messageID === m.info.id).toBe(true);
    }
    const tool = msgs[1]?.parts.find((p) => p.type === "tool");
    expect(tool?.type === "tool" && tool.callID).toBe("toolu_01A7bQx9ZkLmNoPqRsTuVwXy");
    // A second import of the same file is a copy.
    const again = await importBundle(store, r.value);
    expect(again.ok && again.value.copied.length).toBe(1);
    expect((await store.listSessions()).map((s) => s.title).sort()).toEqual(["Fix the failing add() test", "Fix the failing add() test (copy)"]);
  });

  it("fills what older files lack and drops part types we do not know, with a warning", () => {
    const f = JSON.parse(fixture);
    delete f.info.version;
    delete f.info.title;
    delete f.messages[1].info.agent; // older files only had `mode`
    delete f.messages[1].parts[5].tokens;
    f.messages[1].parts.splice(2, 0, { ...f.messages[1].parts[2], id: "prt_b0e3d5a1a006zzzzzzzzzzzzzz", type: "hologram" });
    const r = parseImport(JSON.stringify(f));
    if (!r.ok) throw new Error(r.error);
    const s = r.value.sessions[0];
    expect(s?.info.title).toBe("Imported session");
    expect(s?.info.version).toBe("unknown");
    expect(s?.messages[1]?.info).toMatchObject({ agent: "build" });
    expect(s?.messages[1]?.parts).toHaveLength(6);
    expect(r.value.warnings).toEqual(['messages[1].parts[2]: dropped a part of a type this app does not know ("hologram").']);
  });

  it("reads the file as `opencode export` writes it on Windows: an \"Exporting session\" line first, or UTF-16 from PowerShell's >", () => {
    const prefixed = parseImportBytes(new TextEncoder().encode(`Exporting session: ${SESSION}\r\n${fixture}`));
    expect(prefixed.ok && prefixed.value.source).toBe("opencode");
    const text = `\uFEFF${fixture}`;
    const utf16 = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      utf16[2 * i] = text.charCodeAt(i) & 0xff;
      utf16[2 * i + 1] = text.charCodeAt(i) >> 8;
    }
    const r = parseImportBytes(utf16);
    expect(r.ok && r.value.sessions[0]?.messages.length).toBe(parseImport(fixture).ok ? JSON.parse(fixture).messages.length : -1);
  });

  it("names the missing half of an OpenCode export with only its info or only its messages", () => {
    const f = JSON.parse(fixture);
    const noMessages = parseImport(JSON.stringify({ info: f.info }));
    expect(noMessages.ok ? "" : noMessages.error).toBe('messages: required field is missing (an OpenCode export has both "info" and "messages")');
    const noInfo = parseImport(JSON.stringify({ messages: f.messages }));
    expect(noInfo.ok ? "" : noInfo.error).toBe('info: required field is missing (an OpenCode export has both "info" and "messages")');
  });

  it("rejects OpenCode files with broken rows, naming the field", () => {
    const f = JSON.parse(fixture);
    f.messages[1].parts[3].state.status = "finished";
    const r = parseImport(JSON.stringify(f));
    expect(r).toEqual({ ok: false, error: 'messages[1].parts[3].state.status: expected one of pending|running|completed|error, got "finished"' });
  });
});
