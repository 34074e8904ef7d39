import { describe, expect, it } from "vitest";
import { FakeWebContainer } from "../../testing/fake-webcontainer";
import { LocalSandbox } from "./local/local-sandbox";
import { seedWorkspace } from "./local/workspace-ops";
import { MemoryWorkspaceStore } from "./local/workspace-store";
import { sandboxContract } from "./sandbox-contract";
import { TerminalText, WebContainerSandbox } from "./webcontainer";

sandboxContract("webcontainer (fake container)", async () => {
  const store = new MemoryWorkspaceStore();
  const sandbox = await WebContainerSandbox.open(new FakeWebContainer(), "ses_wc", { store });
  return { sandbox, countBlobs: () => store.countBlobs() };
});

describe("webcontainer sandbox", () => {
  it("mounts only the running session's files in the project directory: other sessions' files are out of reach", async () => {
    const wc = new FakeWebContainer();
    const store = new MemoryWorkspaceStore();
    const a = await WebContainerSandbox.open(wc, "ses_a", { store });
    const b = await WebContainerSandbox.open(wc, "ses_b", { store });
    expect(a.root).toBe("/home/projects/tabcode");
    await a.fs.writeFile(`${a.root}/secret-a.txt`, "a's file");
    await a.exec("mkdir -p src && echo made by a > src/a.ts");
    expect(await b.fs.exists(`${b.root}/secret-a.txt`)).toBe(false);
    expect((await b.exec("ls -a . ..; find / -name 'secret-a*'")).stdout).not.toContain("secret-a");
    expect((await b.exec("cat ../tabcode/secret-a.txt")).stdout).not.toContain("a's file");
    // B can destroy only its own files.
    await b.fs.writeFile(`${b.root}/b.txt`, "b's file");
    await b.exec("rm -rf ../tabcode/* ..");
    expect(await a.fs.readText(`${a.root}/secret-a.txt`)).toBe("a's file");
    expect(await a.fs.readText(`${a.root}/src/a.ts`)).toBe("made by a\n");
    expect(await a.fs.exists(`${a.root}/b.txt`)).toBe(false);
    expect((await a.exec("ls")).stdout).toBe("secret-a.txt\nsrc\n");
    // Each session's changes were persisted back when the other was mounted.
    expect((await store.loadRows("ses_a")).map((r) => r.path).sort()).toEqual(["secret-a.txt", "src", "src/a.ts"]);
    expect((await store.loadRows("ses_b")).map((r) => r.path)).toEqual([]);
  });

  it("runs one session at a time: a command of another session waits for the mounted one", async () => {
    const wc = new FakeWebContainer();
    const store = new MemoryWorkspaceStore();
    const a = await WebContainerSandbox.open(wc, "ses_a", { store });
    const b = await WebContainerSandbox.open(wc, "ses_b", { store });
    await a.fs.writeFile(`${a.root}/a.txt`, "a");
    const [ra, rb] = await Promise.all([a.exec("sleep 0.05; ls"), b.exec("ls")]);
    expect(ra.stdout).toBe("a.txt\n");
    expect(rb.stdout).toBe("");
  });

  it("spawns jsh -c with a cwd relative to the workdir and the env", async () => {
    const wc = new FakeWebContainer();
    const sb = await WebContainerSandbox.open(wc, "ses_s", { store: new MemoryWorkspaceStore() });
    await sb.fs.mkdir(`${sb.root}/sub`);
    await sb.exec("echo $A", { cwd: `${sb.root}/sub`, env: { A: "1" } });
    expect(wc.spawned.at(-1)).toEqual({ command: "jsh", args: ["-c", "echo $A"], options: { cwd: "sub", env: { A: "1" } } });
  });

  it("refuses fs paths outside the workdir", async () => {
    const sb = await WebContainerSandbox.open(new FakeWebContainer(), "ses_o", { store: new MemoryWorkspaceStore() });
    await expect(sb.fs.readFile("/etc/passwd")).rejects.toThrow(/outside the WebContainer workdir/);
    expect(await sb.fs.stat("/etc")).toBeUndefined();
  });

  it("mirrors the workspace into the store and refills a fresh container from it", async () => {
    const store = new MemoryWorkspaceStore();
    const first = await WebContainerSandbox.open(new FakeWebContainer(), "ses_p", { store });
    await first.fs.writeFile(`${first.root}/src/a.ts`, "export const a = 1;\n");
    await first.exec("mkdir -p empty && echo hi > notes.txt && mkdir -p node_modules/x && echo dep > node_modules/x/i.js");
    expect((await store.loadRows("ses_p")).map((r) => r.path).sort()).toEqual(["empty", "notes.txt", "src", "src/a.ts"]);

    const reloaded = await WebContainerSandbox.open(new FakeWebContainer(), "ses_p", { store });
    expect(await reloaded.fs.readText(`${reloaded.root}/src/a.ts`)).toBe("export const a = 1;\n");
    expect(await reloaded.fs.readText(`${reloaded.root}/notes.txt`)).toBe("hi\n");

    // The same rows open in the local backend too.
    const local = await LocalSandbox.open({ workspace: "ses_p", store });
    expect(await local.fs.readText("/workspace/notes.txt")).toBe("hi\n");
  });

  it("opens a workspace seeded for the local backend", async () => {
    const store = new MemoryWorkspaceStore();
    await seedWorkspace(store, "ses_seed", { "README.md": "# demo\n" });
    const sb = await WebContainerSandbox.open(new FakeWebContainer(), "ses_seed", { store });
    expect((await sb.exec("cat README.md")).stdout).toBe("# demo\n");
  });
});

describe("terminal text", () => {
  it("normalises CRLF across chunk boundaries and strips escape sequences", () => {
    const t = new TerminalText();
    const out = t.push("a\r") + t.push("\nb\u001b[32mgreen\u001b[0m\r\n") + t.push("\u001b]0;title\u0007c") + t.end();
    expect(out).toBe("a\nbgreen\nc");
  });
});
