/**
 * Runs one `python3 …` invocation inside a loaded Pyodide: mirrors the
 * workspace view into Pyodide's filesystem at the workspace root, runs the
 * script like CPython's command line would, and reports the changed files.
 * Pure over the Pyodide instance, so Node tests and the Worker share it.
 */
import type { PyodideAPI } from "pyodide";
import type { FileView, EngineRequest, EngineResult } from "./engine-protocol";
import { sameBytes } from "../../../../core/util/bytes";

export const PY_ROOT = "/workspace";

/** The command line, in Python: `-c`, `-m`, a script path, or stdin. */
const DRIVER = `
import sys, os, runpy, traceback, io
def __tabcode_main(args, stdin_text, env, cwd):
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.stdin = io.StringIO(stdin_text)
    # Modules the last run imported from the workspace: drop them, so edited files are imported afresh.
    for m in __tabcode_loaded:
        sys.modules.pop(m, None)
    __tabcode_loaded.clear()
    known = set(sys.modules)
    code = 0
    saved_path = list(sys.path)
    try:
        i = 0
        while i < len(args) and args[i].startswith("-") and args[i] not in ("-", "-c", "-m"):
            if args[i] in ("-V", "--version"):
                print("Python " + sys.version.split()[0])
                return 0
            i += 1
        rest = args[i:]
        if rest and rest[0] == "-c":
            if len(rest) < 2:
                print("Argument expected for the -c option", file=sys.stderr)
                return 2
            sys.argv = ["-c"] + rest[2:]
            sys.path.insert(0, cwd)
            exec(compile(rest[1], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        elif rest and rest[0] == "-m":
            if len(rest) < 2:
                print("Argument expected for the -m option", file=sys.stderr)
                return 2
            sys.argv = [rest[1]] + rest[2:]
            sys.path.insert(0, cwd)
            runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
        elif rest and rest[0] != "-":
            path = os.path.abspath(rest[0])
            if not os.path.exists(path):
                print("python3: can't open file " + repr(path) + ": [Errno 2] No such file or directory", file=sys.stderr)
                return 2
            sys.argv = rest
            sys.path.insert(0, os.path.dirname(path))
            runpy.run_path(rest[0], run_name="__main__")
        else:
            sys.argv = [""]
            exec(compile(stdin_text, "<stdin>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as e:
        c = e.code
        if c is None:
            code = 0
        elif isinstance(c, int):
            code = c
        else:
            print(c, file=sys.stderr)
            code = 1
    except RecursionError as e:
        traceback.print_exception(type(e), e, e.__traceback__.tb_next if e.__traceback__ else None, limit=-8)
        code = 1
    except MemoryError:
        print("MemoryError: the script used more memory than the sandbox allows", file=sys.stderr)
        code = 1
    except BaseException as e:
        # Skip this driver's own frame and runpy's, as CPython's command line shows none of its own.
        tb = e.__traceback__.tb_next if e.__traceback__ else None
        while tb is not None and tb.tb_frame.f_code.co_filename.startswith("<frozen runpy"):
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        if isinstance(e, EOFError) and stdin_text == "" and str(e).startswith("EOF when reading a line"):
            print("(The sandbox runs a script without a keyboard: give it its input through a pipe, e.g. echo 42 | python3 script.py.)", file=sys.stderr)
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        sys.path[:] = saved_path
        for m in set(sys.modules) - known:
            f = getattr(sys.modules.get(m), "__file__", None)
            if f and str(f).startswith("${PY_ROOT}/"):
                __tabcode_loaded.append(m)
    return code
__tabcode_loaded = []
__tabcode_main
`;

type PyFS = PyodideAPI["FS"];

/**
 * Every file this driver puts into the interpreter (or reads back after a
 * run) gets a modification time of its own, from a counter of seconds in the
 * past: a file that still has it after a run was not written by the script
 * and need not be read back. Unique per write, so Python's bytecode cache
 * (keyed by a source's mtime and size) never takes an edited file for the old one.
 */
let stamp = 1_000_000_000;

interface Mirrored {
  data: Uint8Array;
  mtime: number;
}

/** What the interpreter's workspace directory holds (as this driver left it), per interpreter. */
const mirrors = new WeakMap<PyFS, Map<string, Mirrored>>();

function mirrorOf(fs: PyFS): Map<string, Mirrored> {
  let m = mirrors.get(fs);
  if (!m) {
    m = new Map();
    mirrors.set(fs, m);
  }
  return m;
}

function mark(fs: PyFS, mirror: Map<string, Mirrored>, rel: string, data: Uint8Array): void {
  const mtime = ++stamp * 1000;
  fs.utime(`${PY_ROOT}/${rel}`, mtime, mtime);
  mirror.set(rel, { data, mtime });
}


function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

function put(fs: PyFS, mirror: Map<string, Mirrored>, rel: string, data: Uint8Array): void {
  const abs = `${PY_ROOT}/${rel}`;
  try {
    fs.writeFile(abs, data);
  } catch {
    // The parent is missing, or is a file now.
    const parent = parentOf(abs);
    const st = fs.analyzePath(parent);
    if (st.exists && !fs.isDir(st.object.mode)) fs.unlink(parent);
    fs.mkdirTree(parent);
    fs.writeFile(abs, data);
  }
  mark(fs, mirror, rel, data);
}

/** Makes the interpreter's workspace directory equal to the view, writing only what differs from what it holds. */
export function mirrorFiles(fs: PyFS, files: FileView): void {
  const mirror = mirrorOf(fs);
  if (!mirror.size) {
    const st = fs.analyzePath(PY_ROOT);
    if (!st.exists) fs.mkdirTree(PY_ROOT);
  }
  for (const rel of [...mirror.keys()]) {
    if (rel in files) continue;
    try {
      fs.unlink(`${PY_ROOT}/${rel}`);
    } catch {
      // Already gone.
    }
    mirror.delete(rel);
  }
  for (const [rel, data] of Object.entries(files)) {
    const old = mirror.get(rel);
    if (!old || !sameBytes(old.data, data)) put(fs, mirror, rel, data);
  }
}

/** Every file under the workspace directory with its stats (no contents read). */
function walk(fs: PyFS, dir: string, rel: string, out: Map<string, { mtime: number; size: number }>): void {
  for (const name of fs.readdir(dir)) {
    if (name === "." || name === ".." || name === "__pycache__") continue;
    const p = `${dir}/${name}`;
    const r = rel ? `${rel}/${name}` : name;
    let st: ReturnType<PyFS["stat"]>;
    try {
      st = fs.stat(p);
    } catch {
      continue; // A dangling link: nothing to copy back.
    }
    if (fs.isDir(st.mode)) walk(fs, p, r, out);
    else out.set(r, { mtime: st.mtime.getTime(), size: st.size });
  }
}

/**
 * What the run changed, compared with the view it started from. Only files
 * whose modification time moved are read; the mirror learns what they hold.
 */
export function diffFiles(fs: PyFS, before: FileView): Pick<EngineResult, "writes" | "removes"> {
  const mirror = mirrorOf(fs);
  const now = new Map<string, { mtime: number; size: number }>();
  walk(fs, PY_ROOT, "", now);
  const writes: FileView = {};
  for (const [rel, st] of now) {
    const known = mirror.get(rel);
    if (known && st.mtime === known.mtime && st.size === known.data.length) continue;
    const data = fs.readFile(`${PY_ROOT}/${rel}`);
    mark(fs, mirror, rel, data);
    const old = before[rel];
    if (!old || !sameBytes(old, data)) writes[rel] = data;
  }
  for (const rel of [...mirror.keys()]) if (!now.has(rel)) mirror.delete(rel);
  const removes = Object.keys(before).filter((rel) => !now.has(rel));
  return { writes, removes };
}

/** Collects text written to a stream; `limit` caps what is kept (bytes of UTF-16, roughly). */
class Sink {
  text = "";
  dropped = false;
  constructor(private readonly limit: number) {}
  write = (buf: Uint8Array): number => {
    if (this.text.length < this.limit) this.text += new TextDecoder().decode(buf);
    else this.dropped = true;
    return buf.length;
  };
}

export const MAX_PY_OUTPUT = 4 * 1024 * 1024;

type Driver = (args: unknown, stdin: string, env: unknown, cwd: string) => number;
/** The compiled driver per interpreter (compiling it each run costs more than a small script). */
const drivers = new WeakMap<PyodideAPI, Driver>();

export function runInPyodide(py: PyodideAPI, req: EngineRequest): EngineResult {
  mirrorFiles(py.FS, req.files);
  const out = new Sink(MAX_PY_OUTPUT);
  const err = new Sink(MAX_PY_OUTPUT);
  py.setStdout({ write: out.write });
  py.setStderr({ write: err.write });
  let main = drivers.get(py);
  if (!main) {
    main = py.runPython(DRIVER) as Driver;
    drivers.set(py, main);
  }
  let exitCode: number;
  const args = py.toPy(req.args);
  const env = py.toPy(req.env);
  try {
    exitCode = Number(main(args, req.stdin, env, req.cwd));
  } catch (e) {
    err.text += `${e instanceof Error ? e.message : String(e)}\n`;
    exitCode = 1;
  } finally {
    args.destroy?.();
    env.destroy?.();
  }
  if (out.dropped) err.text += "python3: output truncated (more than 4 MB)\n";
  return {
    stdout: out.text,
    stderr: err.text,
    exitCode,
    ...diffFiles(py.FS, req.files),
  };
}
