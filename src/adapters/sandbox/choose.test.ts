import { afterEach, describe, expect, it } from "vitest";
import { FakeWebContainer } from "../../testing/fake-webcontainer";
import type { Sandbox } from "../../core/ports/sandbox";
import { chooseSandbox } from "./choose";
import { createLocalSandboxForTests } from "./local/testing";
import { InProcessEngineHost } from "./local/runtimes/engine-host";
import { runNode } from "./local/runtimes/node-driver";
import { loadQuickJS } from "./local/runtimes/node-host";
import { WEBCONTAINER_OFFER } from "./node-offer";
import type { WebContainerLike } from "./webcontainer";
import {
  type BootEnvironment,
  bootWebContainer,
  getWebContainerState,
  resetWebContainerBootForTests,
  subscribeWebContainerState,
  WEBCONTAINER_LICENCE_NOTE,
} from "./webcontainer-boot";

const never = () => new Promise<never>(() => undefined);

function env(over: Partial<BootEnvironment>): BootEnvironment {
  return {
    crossOriginIsolated: true,
    onLine: true,
    probe: async () => undefined,
    boot: async () => new FakeWebContainer(),
    timeoutMs: 20_000,
    ...over,
  };
}

const fakeLocal = { kind: "local" } as unknown as Sandbox;
const fakeWc = { kind: "webcontainer" } as unknown as Sandbox;

function choose(pref: "auto" | "webcontainer" | "local", e: BootEnvironment) {
  return chooseSandbox(pref, {
    boot: () => bootWebContainer(e),
    openLocal: async () => fakeLocal,
    openWebContainer: async (_id: string, _wc: WebContainerLike) => fakeWc,
  });
}

afterEach(() => resetWebContainerBootForTests());

describe("chooseSandbox", () => {
  it("uses WebContainer when isolated and booted, with the licence note", async () => {
    const c = await choose("webcontainer", env({}));
    expect(c.kind).toBe("webcontainer");
    expect(c.licenceNote).toBe(WEBCONTAINER_LICENCE_NOTE);
    expect(await c.open("ses_1")).toBe(fakeWc);
    expect(getWebContainerState()).toEqual({ status: "ready" });
  });

  it("falls back when the page is not cross-origin isolated, without booting", async () => {
    let booted = false;
    const c = await choose("webcontainer", env({ crossOriginIsolated: false, boot: async () => { booted = true; return new FakeWebContainer(); } }));
    expect(c).toMatchObject({ kind: "local", reason: "WebContainer unavailable: this page is not cross-origin isolated" });
    expect(booted).toBe(false);
    expect(await c.open("ses_1")).toBe(fakeLocal);
  });

  it("falls back at once when offline or when StackBlitz cannot be reached", async () => {
    const offline = await choose("webcontainer", env({ onLine: false, boot: never }));
    expect(offline.reason).toBe("WebContainer unavailable: could not reach StackBlitz (offline?)");
    resetWebContainerBootForTests();
    const started = Date.now();
    const blocked = await choose("webcontainer", env({ probe: async () => Promise.reject(new TypeError("Failed to fetch")), boot: never }));
    expect(blocked).toMatchObject({ kind: "local", reason: "WebContainer unavailable: could not reach StackBlitz (offline?)" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("falls back when boot never settles", async () => {
    const c = await choose("webcontainer", env({ probe: never, boot: never, timeoutMs: 50 }));
    expect(c.reason).toBe("WebContainer unavailable: boot timed out after 50 ms");
    expect(getWebContainerState()).toEqual({ status: "unavailable", reason: "boot timed out after 50 ms" });
  });

  it("reports boot errors", async () => {
    const c = await choose("webcontainer", env({ boot: async () => Promise.reject(new Error("Unable to create more instances")) }));
    expect(c.reason).toBe("WebContainer unavailable: boot failed: Unable to create more instances");
  });

  it("on auto uses the local sandbox and never probes or boots WebContainer", async () => {
    let contacted = 0;
    const c = await choose("auto", env({ probe: async () => void contacted++, boot: async () => { contacted++; return new FakeWebContainer(); } }));
    expect(c).toMatchObject({ kind: "local", reason: expect.stringContaining("starts only if you choose it in Settings") });
    expect(contacted).toBe(0);
    expect(getWebContainerState()).toEqual({ status: "idle" });
  });

  it("uses the local sandbox when forced in Settings", async () => {
    const c = await choose("local", env({}));
    expect(c).toMatchObject({ kind: "local", reason: "chosen in Settings; it runs in this tab" });
    expect(getWebContainerState()).toEqual({ status: "idle" });
  });
});

describe("bootWebContainer", () => {
  it("boots once per page and notifies subscribers", async () => {
    let boots = 0;
    const states: string[] = [];
    const off = subscribeWebContainerState(() => states.push(getWebContainerState().status));
    const e = env({ boot: async () => { boots++; return new FakeWebContainer(); } });
    const [a, b] = await Promise.all([bootWebContainer(e), bootWebContainer(e)]);
    expect(a).toBe(b);
    expect(boots).toBe(1);
    expect(states).toEqual(["booting", "ready"]);
    off();
  });

  it("keeps a started boot's failure for the page load", async () => {
    let boots = 0;
    const e = env({ boot: async () => { boots++; throw new Error("nope"); } });
    await expect(bootWebContainer(e)).rejects.toThrow(/boot failed: nope/);
    await expect(bootWebContainer(e)).rejects.toThrow(/boot failed: nope/);
    expect(boots).toBe(1);
  });
});

describe("automatic mode and commands that need Node.js", () => {
  const node = new InProcessEngineHost(loadQuickJS, runNode);
  const real = () => createLocalSandboxForTests({ files: { "app.js": "require('express')\n" }, runtimes: { node } });

  it("stays local and contacts no one; npm or a script needing a package offers WebContainer and names its host", async () => {
    let contacted = 0;
    const e = env({ probe: async () => void contacted++, boot: async () => { contacted++; return new FakeWebContainer(); } });
    const c = await chooseSandbox("auto", { boot: () => bootWebContainer(e), openLocal: real });
    const sb = await c.open("ses_1");
    expect(sb.kind).toBe("local");
    const live: string[] = [];
    const npm = await sb.exec("npm install", { onOutput: (t) => live.push(t) });
    expect(npm.exitCode).toBe(1);
    expect(npm.stderr.endsWith(WEBCONTAINER_OFFER)).toBe(true);
    expect(npm.combined.endsWith(WEBCONTAINER_OFFER)).toBe(true);
    expect(live.at(-1)).toBe(WEBCONTAINER_OFFER);
    expect(WEBCONTAINER_OFFER).toContain("stackblitz.com");
    // The command's own message names the backend; the offer adds what choosing it means, without saying it twice.
    expect(npm.stderr.split("Settings → Sandbox")).toHaveLength(2);
    const script = await sb.exec("node app.js");
    expect(script.stderr).toContain("Cannot find module 'express'");
    expect(script.stderr).toContain(WEBCONTAINER_OFFER);
    const plain = await sb.exec("node -p 1+1 && echo ok");
    expect(plain).toMatchObject({ stdout: "2\nok\n", stderr: "" });
    // The rest of the sandbox is the same object underneath.
    await sb.fs.writeFile("/workspace/x.txt", "x");
    expect(await sb.fs.readText("/workspace/x.txt")).toBe("x");
    expect(await sb.snapshot()).toMatch(/^[0-9a-f]+$/);
    expect(contacted).toBe(0);
    expect(getWebContainerState()).toEqual({ status: "idle" });
  });

  it("when Local is forced, npm explains itself without the offer", async () => {
    const c = await chooseSandbox("local", { openLocal: real });
    const r = await (await c.open("ses_1")).exec("npm install");
    expect(r.stderr).toContain("runs full Node.js and npm");
    expect(r.stderr).not.toContain(WEBCONTAINER_OFFER);
  });
});
