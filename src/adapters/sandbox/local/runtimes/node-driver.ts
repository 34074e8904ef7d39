/**
 * Runs one `node …` invocation in a fresh QuickJS runtime: the workspace view
 * becomes the script's filesystem (`node-fs.ts`), the prelude gives it Node's
 * core surface, ES modules load from the workspace, and the run is bounded
 * by the command timeout (interrupt handler), a memory limit and a stack
 * limit. Pure over the QuickJS module, so Node tests and the Worker share it.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule, VmCallResult } from "quickjs-emscripten-core";
import { engineBudget } from "./engine-host";
import type { EngineRequest, EngineResult } from "./engine-protocol";
import { NODE_CORE } from "./node-core";
import { NodeFs } from "./node-fs";
import { esmLoader } from "./node-modules";
import { parseNodeArgs } from "./node-args";
import { MISSING_MODULES, NODE_PRELUDE } from "./node-prelude";

export const NODE_ROOT = "/workspace";
export const NODE_MEMORY_MB = 128;
/** QuickJS's own stack limit (about 650 nested calls): small enough that QuickJS, not the browser's Worker stack, overflows first. */
const STACK_BYTES = 128 * 1024;
export const MAX_NODE_OUTPUT = 4 * 1024 * 1024;

class Sink {
  text = "";
  dropped = false;
  write(s: string): void {
    if (this.text.length + s.length <= MAX_NODE_OUTPUT) this.text += s;
    else this.dropped = true;
  }
}

type Outcome = { kind: "ok" } | { kind: "exit"; code: number } | { kind: "error"; text: string };

/** Installs the host calls the prelude uses (`__h`). */
function installHost(vm: QuickJSContext, fs: NodeFs, out: Sink, err: Sink): void {
  const h = vm.newObject();
  const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | VmCallResult<QuickJSHandle> | undefined) => {
    const f = vm.newFunction(name, impl);
    vm.setProp(h, name, f);
    f.dispose();
  };
  const bytesOf = (handle: QuickJSHandle): Uint8Array => {
    const life = vm.getArrayBuffer(handle);
    const copy = life.value.slice();
    life.dispose();
    return copy;
  };
  fn("out", (fd, text) => {
    (vm.getNumber(fd) === 2 ? err : out).write(vm.getString(text));
    return undefined;
  });
  fn("utf8", (buf) => vm.newString(new TextDecoder().decode(bytesOf(buf))));
  fn("bytes", (s) => vm.newArrayBuffer(new TextEncoder().encode(vm.getString(s)).buffer));
  fn("fs", (op, p, arg) => vm.newString(JSON.stringify(fs.op(vm.getString(op), vm.getString(p), vm.getString(arg)))));
  fn("read", (p) => {
    const r = fs.read(vm.getString(p));
    return r instanceof Uint8Array ? vm.newArrayBuffer(r.slice().buffer) : vm.newString(JSON.stringify(r));
  });
  fn("write", (p, data, append) => {
    const r = fs.write(vm.getString(p), bytesOf(data), vm.dump(append) === true);
    return r.e ? vm.newString(JSON.stringify(r)) : undefined;
  });
  fn("compile", (code, file) => vm.evalCode(vm.getString(code), vm.getString(file)));
  vm.setProp(vm.global, "__h", h);
  h.dispose();
}

/** Evaluates trusted setup code, or throws. */
function setup(vm: QuickJSContext, code: string, file: string): QuickJSHandle {
  return vm.unwrapResult(vm.evalCode(code, file));
}

const DESCRIBE = `(function (Exit, inspect) {
  return function (e) {
    if (e instanceof Exit) return JSON.stringify({ exit: e.code });
    if (e instanceof Error) {
      var stack = (e.stack || "").split("\\n").filter(Boolean);
      var shown = stack.length > 12 ? stack.slice(0, 10).concat(["    ... " + (stack.length - 10) + " more frames"]) : stack;
      var head = e.name + ": " + e.message;
      return JSON.stringify({ text: head + (shown.length ? "\\n" + shown.join("\\n") : "") });
    }
    return JSON.stringify({ text: "Uncaught " + inspect(e, {}, 1) });
  };
})`;

class NodeRun {
  private describe?: QuickJSHandle;
  constructor(
    readonly rt: QuickJSRuntime,
    readonly vm: QuickJSContext,
  ) {}

  setDescribe(h: QuickJSHandle): void {
    this.describe = h;
  }

  dispose(): void {
    this.describe?.dispose();
    this.describe = undefined;
  }

  /** A thrown value as an outcome (process.exit is a thrown sentinel). */
  outcome(error: QuickJSHandle): Outcome {
    if (!this.describe) return { kind: "error", text: String(this.vm.dump(error)) };
    const r = this.vm.callFunction(this.describe, this.vm.undefined, error);
    error.dispose();
    if (r.error) {
      r.error.dispose();
      return { kind: "error", text: "Error: (an error that could not be described)" };
    }
    const v = JSON.parse(this.vm.getString(r.value)) as { exit?: number; text?: string };
    r.value.dispose();
    return v.exit !== undefined ? { kind: "exit", code: v.exit } : { kind: "error", text: v.text ?? "Error" };
  }

  settle(r: VmCallResult<QuickJSHandle>): Outcome {
    if (r.error) return this.outcome(r.error);
    const state = this.vm.getPromiseState(r.value);
    r.value.dispose();
    if (state.type === "rejected") return this.outcome(state.error);
    if (state.type === "fulfilled" && !state.notAPromise) state.value.dispose();
    return { kind: "ok" };
  }

  /** Microtasks, then due timers, until nothing is left (the virtual clock never sleeps). */
  loop(tick: QuickJSHandle): Outcome {
    for (;;) {
      const jobs = this.rt.executePendingJobs();
      if (jobs.error) return this.outcome(jobs.error);
      const t = this.vm.callFunction(tick, this.vm.undefined);
      if (t.error) return this.outcome(t.error);
      const more = this.vm.dump(t.value) === true;
      t.value.dispose();
      if (!more && !this.rt.hasPendingJob()) return { kind: "ok" };
    }
  }
}

function words(text: string, interrupted: boolean, timeoutMs: number): { stderr: string; code: number } {
  if (interrupted) return { stderr: `node: stopped after ${Math.round(timeoutMs / 1000)} s (the command timeout); the script was interrupted.\n`, code: 124 };
  if (/out of memory|^Uncaught null$/i.test(text))
    return { stderr: `${text}\nnode: the script ran out of memory (the local sandbox allows ${NODE_MEMORY_MB} MB).\n`, code: 134 };
  if (/stack overflow|Maximum call stack/i.test(text))
    return { stderr: `RangeError: Maximum call stack size exceeded (node in the local sandbox is QuickJS with a ${STACK_BYTES >> 10} KB stack)\n`, code: 1 };
  return { stderr: `${text}\n`, code: 1 };
}

export function runNode(qjs: QuickJSWASMModule, req: EngineRequest): EngineResult {
  const args = parseNodeArgs(req.args, req.stdin);
  if (args.kind === "done") return { stdout: args.stdout, stderr: args.stderr, exitCode: args.code, writes: {}, removes: [] };
  const fs = new NodeFs(NODE_ROOT, req.files);
  const out = new Sink();
  const err = new Sink();
  const rt = qjs.newRuntime();
  rt.setMemoryLimit(NODE_MEMORY_MB * 1024 * 1024);
  rt.setMaxStackSize(STACK_BYTES);
  const timeoutMs = req.timeoutMs ?? 120_000;
  const deadline = Date.now() + engineBudget(timeoutMs);
  let interrupted = false;
  rt.setInterruptHandler(() => {
    if (Date.now() > deadline) interrupted = true;
    return interrupted;
  });
  const vm = rt.newContext();
  const run = new NodeRun(rt, vm);
  let outcome: Outcome;
  let restart = false;
  try {
    installHost(vm, fs, out, err);
    const prelude = setup(vm, NODE_PRELUDE, "node:internal/prelude");
    const missing = setup(vm, JSON.stringify(MISSING_MODULES), "node:internal/missing");
    const h = vm.getProp(vm.global, "__h");
    vm.unwrapResult(vm.callFunction(prelude, vm.undefined, h, missing)).dispose();
    missing.dispose();
    prelude.dispose();
    const core = setup(vm, NODE_CORE, "node:internal/core");
    const script = args.kind === "file" ? fs.resolve(req.cwd, args.path) : `${req.cwd}/[eval]`;
    const argv = vm.unwrapResult(vm.evalCode(JSON.stringify(["/usr/local/bin/node", ...(args.kind === "file" ? [script] : []), ...args.rest])));
    const env = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(req.env)})`));
    const cwd = vm.newString(req.cwd);
    const api = vm.unwrapResult(vm.callFunction(core, vm.undefined, h, cwd, argv, env));
    for (const x of [core, argv, env, h, cwd]) x.dispose();
    const exitCls = vm.getProp(api, "Exit");
    const inspect = setup(vm, "globalThis.require('util').inspect", "node:internal/describe");
    const describe = setup(vm, DESCRIBE, "node:internal/describe");
    run.setDescribe(vm.unwrapResult(vm.callFunction(describe, vm.undefined, exitCls, inspect)));
    for (const x of [exitCls, inspect, describe]) x.dispose();
    rt.setModuleLoader(...esmLoader(vm, fs, api));
    const tick = vm.getProp(vm.global, "__tabcode_tick");
    outcome = runMain(run, fs, api, args, req);
    if (outcome.kind === "ok") outcome = run.loop(tick);
    tick.dispose();
    api.dispose();
    if (outcome.kind === "ok") {
      const h = vm.unwrapResult(vm.evalCode("process.exitCode"));
      const code = vm.dump(h);
      h.dispose();
      outcome = { kind: "exit", code: typeof code === "number" ? code : 0 };
    }
  } catch (e) {
    // The engine itself gave up (host stack exhausted, memory): report it and drop the runtime.
    outcome = { kind: "error", text: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    restart = true;
  }
  try {
    run.dispose();
    vm.dispose();
    rt.dispose();
  } catch {
    // A runtime that refuses a clean disposal is dropped with its module.
    restart = true;
  }
  let exitCode = 0;
  let stderr = err.text;
  if (outcome.kind === "exit") exitCode = outcome.code;
  else if (outcome.kind === "error") {
    const w = words(outcome.text, interrupted, timeoutMs);
    stderr += w.stderr;
    exitCode = w.code;
  }
  if (out.dropped || err.dropped) stderr += "node: output truncated (more than 4 MB)\n";
  return { stdout: out.text, stderr, exitCode, ...fs.changes(), ...(restart ? { restart } : {}) };
}

function runMain(run: NodeRun, fs: NodeFs, api: QuickJSHandle, args: ReturnType<typeof parseNodeArgs>, req: EngineRequest): Outcome {
  const { vm } = run;
  if (args.kind === "eval") {
    const file = `${req.cwd}/[eval]`;
    if (args.module) return run.settle(vm.evalCode(args.code, file, { type: "module" }));
    const r = vm.evalCode(args.code, "[eval]");
    if (r.error || !args.print) return run.settle(r);
    const log = vm.unwrapResult(vm.evalCode("console.log"));
    const printed = vm.callFunction(log, vm.undefined, r.value);
    log.dispose();
    r.value.dispose();
    return run.settle(printed);
  }
  if (args.kind !== "file") return { kind: "ok" };
  const abs = fs.resolve(req.cwd, args.path);
  const src = fs.text(abs);
  if (src === undefined) return { kind: "error", text: `Error: Cannot find module '${abs}'` };
  if (fs.isModule(abs, src)) return run.settle(vm.evalCode(src.replace(/^#!.*/, ""), abs, { type: "module" }));
  const load = vm.getProp(api, "load");
  const file = vm.newString(abs);
  const r = vm.callFunction(load, vm.undefined, file);
  load.dispose();
  file.dispose();
  return run.settle(r);
}
