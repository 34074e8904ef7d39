/**
 * A turn that waits for the person's command in the terminal says so: the session's status names the command
 * while the step's starting snapshot waits for it, and goes back to working when it ends or the turn is stopped.
 */
import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { MemoryStore } from "../../testing/memory-store";
import { makeTestService } from "../../testing/session-service";
import type { SessionStatus } from "../bus";
import type { Part } from "../schema";
import { namedError } from "../errors";
import { workspaceTools } from "../tools/index";
import { retryNow } from "./retry-now";
import type { SessionServiceDeps } from "./service-deps";

/** A person's command that runs until `end()`, as the terminal reports it (app/shell-runs.ts). */
function personCommand(line: string) {
  let running = true;
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = () => {
      running = false;
      resolve();
    };
  });
  return { userCommandsDone: () => done, userCommand: () => (running ? line : undefined), end: () => end() };
}

async function setup(llm: FakeLLM, command: { userCommandsDone: SessionServiceDeps["userCommandsDone"]; userCommand: SessionServiceDeps["userCommand"] }) {
  const sandbox = await createLocalSandboxForTests({ files: { "a.txt": "a\n" } });
  const t = makeTestService({ llm, tools: workspaceTools, sandbox, userCommandsDone: command.userCommandsDone, userCommand: command.userCommand });
  const seen: SessionStatus[] = [];
  const s = await t.service.createSession();
  t.service.subscribe(() => seen.push(t.service.status(s.id)));
  return { ...t, s, seen };
}

describe("a turn waiting for the person's terminal command", () => {
  it("says which command it waits for, until the command ends; then the turn goes on", async () => {
    const command = personCommand("npm test");
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "cat a.txt", description: "read" } }]), textTurn("done")]);
    const { service, store, s, seen } = await setup(llm, command);
    await service.prompt(s.id, { text: "look" });
    const run = service.ensureRunning(s.id);
    await expect.poll(() => service.status(s.id)).toEqual({ type: "awaiting-command", command: "npm test" });
    // Still waiting a while later: nothing ran meanwhile.
    await new Promise((r) => setTimeout(r, 50));
    expect(service.status(s.id)).toEqual({ type: "awaiting-command", command: "npm test" });
    const tool = (await store.messages(s.id)).flatMap((m) => m.parts).find((p) => p.type === "tool");
    expect(tool?.type === "tool" ? tool.state.status : undefined).not.toBe("completed");
    command.end();
    await run;
    expect(service.status(s.id)).toEqual({ type: "idle" });
    // Waiting, then working again once the command ended, then idle: the wait is said exactly while it lasts.
    const kinds = seen.map((x) => x.type).filter((k, i, all) => k !== all[i - 1]);
    expect(kinds).toEqual(["busy", "awaiting-command", "busy", "idle"]);
    const last = await store.messages(s.id);
    expect(last.flatMap((m) => m.parts).some((p) => p.type === "text" && p.text === "done")).toBe(true);
  });

  it("a command learned of later (another tab's, after a lock query) is said from then until it ends", async () => {
    let end = () => {};
    const done = new Promise<void>((resolve) => {
      end = resolve;
    });
    // This tab runs nothing (no line at once); the wait hears of the other tab's command a moment later.
    const command = {
      userCommandsDone: (_id: string, waiting?: (line: string) => void) => {
        setTimeout(() => waiting?.("make all"), 5);
        return done;
      },
      userCommand: () => undefined,
      end: () => end(),
    };
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "cat a.txt", description: "read" } }]), textTurn("done")]);
    const { service, store, s, seen } = await setup(llm, command);
    await service.prompt(s.id, { text: "look" });
    const run = service.ensureRunning(s.id);
    await expect.poll(() => service.status(s.id)).toEqual({ type: "awaiting-command", command: "make all" });
    const tool = (await store.messages(s.id)).flatMap((m) => m.parts).find((p) => p.type === "tool");
    expect(tool?.type === "tool" ? tool.state.status : undefined).not.toBe("completed");
    command.end();
    await run;
    const kinds = seen.map((x) => x.type).filter((k, i, all) => k !== all[i - 1]);
    expect(kinds).toEqual(["busy", "awaiting-command", "busy", "idle"]);
  });

  it("the status follows the command waited for: this tab's first, then another tab's that runs on", async () => {
    let end = () => {};
    const done = new Promise<void>((resolve) => {
      end = resolve;
    });
    let hear: ((line: string) => void) | undefined;
    const command = {
      userCommandsDone: (_id: string, waiting?: (line: string) => void) => {
        hear = waiting;
        return done;
      },
      userCommand: () => "make all",
    };
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "cat a.txt", description: "read" } }]), textTurn("done")]);
    const { service, s } = await setup(llm, command);
    await service.prompt(s.id, { text: "look" });
    const run = service.ensureRunning(s.id);
    await expect.poll(() => service.status(s.id)).toEqual({ type: "awaiting-command", command: "make all" });
    hear?.("npm test");
    await expect.poll(() => service.status(s.id)).toEqual({ type: "awaiting-command", command: "npm test" });
    end();
    await run;
    expect(service.status(s.id)).toEqual({ type: "idle" });
  });

  it("Stop ends the wait, and the status with it", async () => {
    const command = personCommand("sleep 100");
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "ls", description: "list" } }]), textTurn("done")]);
    const { service, s } = await setup(llm, command);
    await service.prompt(s.id, { text: "list" });
    const run = service.ensureRunning(s.id);
    await expect.poll(() => service.status(s.id).type).toBe("awaiting-command");
    await service.stop(s.id);
    await run;
    expect(service.status(s.id)).toEqual({ type: "idle" });
    command.end();
  });

  it("a retry meanwhile is said while it waits, then the wait for the command again", async () => {
    const command = personCommand("npm test");
    const rateLimited = namedError("APIError", { message: "Rate limit reached", statusCode: 429, isRetryable: true, responseHeaders: { "retry-after": "600" } });
    const llm = new FakeLLM([[{ type: "error", error: rateLimited }], textTurn("after retry")]);
    const { service, s } = await setup(llm, command);
    await service.prompt(s.id, { text: "x" });
    const run = service.ensureRunning(s.id);
    await expect.poll(() => service.status(s.id).type).toBe("retry");
    expect(retryNow(s.id)).toBe(true);
    // The answer may have come meanwhile; the step still waits for the command (its snapshot), and says so.
    await expect.poll(() => service.status(s.id)).toEqual({ type: "awaiting-command", command: "npm test" });
    command.end();
    await run;
    expect(service.status(s.id)).toEqual({ type: "idle" });
  });

  it("says nothing when no command of the person's runs", async () => {
    const command = personCommand("npm test");
    command.end();
    const llm = new FakeLLM([textTurn("hi")]);
    const { service, s, seen } = await setup(llm, command);
    await service.prompt(s.id, { text: "hello" });
    await service.ensureRunning(s.id);
    expect(seen.some((x) => x.type === "awaiting-command")).toBe(false);
  });

  it("a step that fails while it waits for the person's command leaves the session idle when the command ends", async () => {
    /** A store that cannot write the retry line (as when the browser's storage is full). */
    class FailingRetryWrite extends MemoryStore {
      override async upsertPart(part: Part): Promise<void> {
        if (part.type === "retry") throw new Error("QuotaExceededError");
        return super.upsertPart(part);
      }
    }
    const cmd = personCommand("npm test");
    const rateLimited = namedError("APIError", { message: "Rate limit reached", statusCode: 429, isRetryable: true, responseHeaders: { "retry-after": "1" } });
    const llm = new FakeLLM([[{ type: "error", error: rateLimited }], textTurn("after")]);
    const sandbox = await createLocalSandboxForTests({ files: { "a.txt": "a\n" } });
    const { service } = makeTestService({ llm, tools: workspaceTools, sandbox, store: new FailingRetryWrite(), userCommandsDone: cmd.userCommandsDone, userCommand: cmd.userCommand });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "x" });
    await service.ensureRunning(s.id);
    expect(service.status(s.id)).toEqual({ type: "idle" });
    cmd.end();
    await new Promise((r) => setTimeout(r, 20));
    expect(service.status(s.id)).toEqual({ type: "idle" });
  });
});
