/**
 * The `node` command line: a script, `-e`/`-p` code, or stdin, with the
 * options scripts commonly pass. Options that need parts of Node.js the
 * local sandbox lacks (the test runner, watch mode, the inspector) say so.
 */
import { NEEDS_FULL_NODE } from "../missing-commands";

export type NodeArgs =
  | { kind: "file"; path: string; rest: string[] }
  | { kind: "eval"; code: string; print: boolean; module: boolean; rest: string[] }
  | { kind: "done"; stdout: string; stderr: string; code: number };

export const NODE_FULL = NEEDS_FULL_NODE;

export const NODE_HELP = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]

node in the local sandbox is QuickJS with Node's console, process, Buffer,
timers, fs, path, os, util, events and assert; require() and import load
workspace files and JSON. npm packages, network and child processes are not
available: ${NODE_FULL}.

Options:
  -e, --eval script        evaluate script
  -p, --print script       evaluate script and print the result
  --input-type=module      treat -e/-p/stdin code as an ES module
  -v, --version            print the version
  -h, --help               print this help
`;

const UNSUPPORTED = ["--test", "--watch", "--inspect", "--inspect-brk", "--prof", "--cpu-prof", "--experimental-vm-modules"];
const WITH_VALUE = new Set(["-r", "--require", "--import", "--loader", "--max-old-space-size", "--stack-size", "--env-file"]);

export function parseNodeArgs(args: readonly string[], stdin: string): NodeArgs {
  let module = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "-v" || a === "--version") return { kind: "done", stdout: "v0.0.0-quickjs\n", stderr: "", code: 0 };
    if (a === "-h" || a === "--help") return { kind: "done", stdout: NODE_HELP, stderr: "", code: 0 };
    if (a === "-e" || a === "--eval" || a === "-p" || a === "--print" || a === "-pe") {
      const code = args[i + 1];
      if (code === undefined) return { kind: "done", stdout: "", stderr: `node: ${a} requires an argument\n`, code: 9 };
      return { kind: "eval", code, print: a !== "-e" && a !== "--eval", module, rest: args.slice(i + 2) };
    }
    if (a === "--input-type=module") module = true;
    else if (UNSUPPORTED.some((u) => a === u || a.startsWith(`${u}=`)))
      return { kind: "done", stdout: "", stderr: `node: ${a} is not available in the local sandbox (node here is QuickJS); ${NODE_FULL}.\n`, code: 9 };
    else if (WITH_VALUE.has(a)) i++;
    else if (a === "-") return { kind: "eval", code: stdin, print: false, module, rest: args.slice(i + 1) };
    else if (a === "--") return file(args, i + 1, stdin, module);
    else if (!a.startsWith("-")) return file(args, i, stdin, module);
  }
  return { kind: "eval", code: stdin, print: false, module, rest: [] };
}

function file(args: readonly string[], i: number, stdin: string, module: boolean): NodeArgs {
  const path = args[i];
  if (path === undefined) return { kind: "eval", code: stdin, print: false, module, rest: [] };
  return { kind: "file", path, rest: args.slice(i + 1) };
}
