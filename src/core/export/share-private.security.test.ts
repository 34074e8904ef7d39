/**
 * Private shares: a passphrase link opens only with its passphrase; the
 * redaction pass finds secret shapes in every channel and removes exactly
 * the ones chosen; links over about 8 KB are refused with their size.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 as prng } from "../../testing/prng";
import { findSecrets, findSecretsInAll, redactFile } from "./redact";
import { decodeProtectedShare, decodeShare, isProtectedShare, MAX_SHARE_LINK, protectedShareLink, shareLink } from "./share";
import { SessionBuilder } from "./test-helpers";
import type { ExportFile } from "./types";

const fileOf = (b: SessionBuilder): ExportFile => {
  const s = b.build();
  return { format: "tabcode-session", version: 1, exportedAt: 1, info: s.session, messages: s.messages };
};

const SECRETS = {
  openai: "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  github: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  aws: "AKIAIOSFODNN7EXAMPLE",
  env: "s3cr3t-db-pass",
  pem: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----",
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
};

function leaky(): ExportFile {
  const b = new SessionBuilder({ title: `deploy with ${SECRETS.aws}` });
  const u = b.user(`my key is ${SECRETS.openai}, please use it`);
  b.assistant(u, [
    { type: "reasoning", text: `The token ${SECRETS.github} grants repo access.`, time: { start: 1, end: 2 } },
    {
      type: "tool",
      callID: "c1",
      tool: "bash",
      state: { status: "completed", input: { command: "cat .env" }, output: `DB_HOST=localhost\nDB_PASSWORD=${SECRETS.env}\n`, title: "cat", metadata: {}, time: { start: 1, end: 2 } },
    },
    { type: "tool", callID: "c2", tool: "read", state: { status: "error", input: { filePath: "id_ed25519" }, error: SECRETS.pem, time: { start: 1, end: 2 } } },
    { type: "text", text: `Authorization: Bearer ${SECRETS.jwt} and again ${SECRETS.openai}` },
  ]);
  return fileOf(b);
}

describe("redaction", () => {
  it("finds each secret once, in every channel, with a masked preview", () => {
    const found = findSecrets(leaky());
    expect(new Set(found.map((f) => f.value))).toEqual(new Set(Object.values(SECRETS)));
    const openai = found.find((f) => f.value === SECRETS.openai);
    expect(openai).toMatchObject({ kind: "OpenAI-style API key", count: 2, where: "message 1, text" });
    expect(openai?.preview).toBe("sk-p… (44 characters)");
    for (const f of found) expect(f.preview).not.toContain(f.value.slice(6));
  });

  it("removes exactly the chosen ones and keeps the rest of the file", () => {
    const file = leaky();
    const found = findSecrets(file);
    const chosen = found.filter((f) => f.value !== SECRETS.aws);
    const out = JSON.stringify(redactFile(file, chosen));
    for (const f of chosen) expect(out).not.toContain(f.value);
    expect(out).toContain(SECRETS.aws);
    expect(out).toContain("[redacted OpenAI-style API key]");
    expect(out).toContain("DB_HOST=localhost");
    expect(findSecrets(redactFile(file, found))).toEqual([]);
  });

  it("an `env` listing: the shell's folders and path values are not secrets, a password variable is", () => {
    const b = new SessionBuilder();
    const u = b.user("show the environment");
    const env = "PWD=/workspace\nOLDPWD=/workspace/src\nSSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.1\nXAUTHORITY=~/.Xauthority\nHOME=/home/user\nDB_PWD=hunter22x\nAWS_SECRET_ACCESS_KEY=/k7MDENGbPxRfiCYEXAMPLEKEYwJalrXUtnFEMI+K\n";
    b.assistant(u, [{ type: "tool", callID: "c1", tool: "bash", state: { status: "completed", input: { command: "env" }, output: env, title: "env", metadata: {}, time: { start: 1, end: 2 } } }]);
    const found = findSecrets(fileOf(b));
    // A secret that starts with "/" is still one (no short path segments: a long base64 run and a "+").
    expect(found.map((f) => f.value)).toEqual(["hunter22x", "/k7MDENGbPxRfiCYEXAMPLEKEYwJalrXUtnFEMI+K"]);
    // Removing it leaves every path as it was.
    expect(JSON.stringify(redactFile(fileOf(b), found))).toContain("PWD=/workspace\\nOLDPWD=/workspace/src");
  });

  it("the key from Settings is a secret whatever its shape; Groq and xAI keys by their prefix", () => {
    const mistral = "Zx81kQ2mP0aL7vR4tY6uB3nC9dE5fG1h";
    const groq = "gsk_4fJ8kL2mN6pQ0rS3tU7vW1xY5zA9bC2dE6fG0hJ4kL8mN2p";
    const xai = "xai-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90";
    const b = new SessionBuilder();
    b.user(`use ${mistral} and ${groq} and ${xai}`);
    expect(findSecrets(fileOf(b)).map((f) => f.kind)).toEqual(["Groq API key", "xAI API key"]);
    const withKey = findSecrets(fileOf(b), [` ${mistral} `, ""]);
    expect(withKey.find((f) => f.value === mistral)?.kind).toBe("your API key from Settings");
    expect(withKey).toHaveLength(3);
  });

  it("finds a secret in what had streamed of a call stopped before it ran (kept in its details)", () => {
    const b = new SessionBuilder();
    const u = b.user("write the env file");
    b.assistant(u, [
      { type: "tool", callID: "c1", tool: "write", state: { status: "error", input: {}, error: "Tool execution aborted", metadata: { notStarted: true, interrupted: true, raw: `{"filePath":".env","content":"OPENAI_API_KEY=${SECRETS.openai}` }, time: { start: 1, end: 1 } } },
    ]);
    const found = findSecrets(fileOf(b));
    expect(found.map((f) => [f.value, f.where])).toEqual([[SECRETS.openai, "message 2, tool write details"]]);
    expect(JSON.stringify(redactFile(fileOf(b), found))).not.toContain(SECRETS.openai);
  });

  it("finds secrets in the workspace's text files when they go too", () => {
    const b = new SessionBuilder();
    b.user("export this");
    const file: ExportFile = { ...fileOf(b), workspace: { ".env": { encoding: "utf8", data: `OPENAI_API_KEY=${SECRETS.openai}\n` } } };
    const found = findSecrets(file);
    expect(found.map((f) => [f.value, f.where])).toEqual([[SECRETS.openai, "workspace file .env"]]);
    expect(JSON.stringify(redactFile(file, found))).not.toContain(SECRETS.openai);
  });

  it("across sessions (Export all): each secret once, counted over all, said with the session it was first seen in", () => {
    const a = new SessionBuilder({ title: "Deploy" });
    a.user(`key ${SECRETS.openai}`);
    const c = new SessionBuilder({ title: "Later" });
    c.user(`again ${SECRETS.openai} and ${SECRETS.github}`);
    const found = findSecretsInAll([fileOf(a), fileOf(c)]);
    expect(found.map((f) => [f.value, f.count, f.where])).toEqual([
      [SECRETS.openai, 2, "“Deploy”, message 1, text"],
      [SECRETS.github, 1, "“Later”, message 1, text"],
    ]);
  });

  it("finds nothing in ordinary text", () => {
    const b = new SessionBuilder();
    b.user("Refactor the tokenizer; the password field must stay masked. sk-short is not a key.");
    expect(findSecrets(fileOf(b))).toEqual([]);
  });
});

describe("passphrase links", () => {
  it("open only with the passphrase; without it the link reveals no content", async () => {
    const b = new SessionBuilder({ title: "Private plan" });
    b.user("the launch date is March 3");
    const r = await protectedShareLink("https://t.example", fileOf(b), "correct horse");
    if (!r.ok) throw new Error("too large");
    expect(isProtectedShare(r.url)).toBe(true);
    expect(r.url).not.toContain("March");
    expect(decodeShare(r.url)).toEqual({ ok: false, error: "This share link is protected by a passphrase." });
    expect(await decodeProtectedShare(r.url, "wrong horse")).toEqual({ ok: false, error: "Wrong passphrase — or the link was changed after it was made." });
    const opened = await decodeProtectedShare(r.url, "correct horse");
    expect(opened.ok && opened.value.sessions[0]?.info.title).toBe("Private plan");
    // An edited link fails the integrity check, not silently.
    // (The replaced character is the one looked at: picking by the last one left the link unchanged 1 time in 64.)
    const tampered = r.url.slice(0, -3) + (r.url.at(-3) === "A" ? "B" : "A") + r.url.slice(-2);
    expect(tampered).not.toBe(r.url);
    expect((await decodeProtectedShare(tampered, "correct horse")).ok).toBe(false);
  });

  it("a link over about 8 KB is refused with its size", async () => {
    const b = new SessionBuilder();
    const r = prng(3);
    b.user(Array.from({ length: 12_000 }, () => Math.floor(r() * 36).toString(36)).join(""));
    const plain = shareLink("https://t.example", fileOf(b));
    const locked = await protectedShareLink("https://t.example", fileOf(b), "pw");
    for (const r of [plain, locked]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.size).toBeGreaterThan(MAX_SHARE_LINK);
    }
  });
});
