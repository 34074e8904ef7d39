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
  it("gives each session its own directory under the workdir", async () => {
    const wc = new FakeWebContainer();
    const store = new MemoryWorkspaceStore();
    const a = await WebContainerSandbox.open(wc, "ses_a", { store });
    const b = await WebContainerSandbox.open(wc, "ses_b", { store });
    expect(a.root).toBe("/home/projects/tabcode/ses_a");
    await a.fs.writeFile(`${a.root}/x.txt`, "a");
    expect(await b.fs.exists(`${b.root}/x.txt`)).toBe(false);
    expect((await b.exec("ls ..")).stdout).toBe("ses_a\nses_b\n");
  });

  it("spawns jsh -c with a cwd relative to the workdir and the env", async () => {
    const wc = new FakeWebContainer();
    const sb = await WebContainerSandbox.open(wc, "ses_s", { store: new MemoryWorkspaceStore() });
    await sb.fs.mkdir(`${sb.root}/sub`);
    await sb.exec("echo $A", { cwd: `${sb.root}/sub`, env: { A: "1" } });
    expect(wc.spawned.at(-1)).toEqual({ command: "jsh", args: ["-c", "echo $A"], options: { cwd: "ses_s/sub", env: { A: "1" } } });
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
