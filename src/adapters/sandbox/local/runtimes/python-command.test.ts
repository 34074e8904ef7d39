import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../../core/permission/evaluate";
import { pathPolicy } from "../../../../core/permission/path-policy";
import type { LocalSandbox } from "../local-sandbox";
import { createLocalSandboxForTests } from "../testing";
import { MemoryWorkspaceStore } from "../workspace-store";
import { InProcessPythonHost } from "./python-host";

// One real Pyodide for the whole file (loading it takes seconds).
const python = new InProcessPythonHost();

async function sandbox(files: Record<string, string> = {}): Promise<LocalSandbox> {
  return createLocalSandboxForTests({
    files,
    runtimes: { python },
    store: new MemoryWorkspaceStore(),
  });
}

describe("python3 in the local sandbox (real Pyodide)", () => {
  beforeAll(async () => {
    const sb = await sandbox();
    await sb.exec("python3 -c 'pass'");
  }, 120_000);

  it("runs a workspace script with sys.argv and its exit code", async () => {
    const sb = await sandbox({
      "app.py": "import sys\nprint('args', sys.argv)\nsys.exit(3)\n",
    });
    const r = await sb.exec("python3 app.py one two");
    expect(r.stdout).toBe("args ['app.py', 'one', 'two']\n");
    expect(r.exitCode).toBe(3);
  });

  it("runs -c, reads stdin from a pipe and writes stderr", async () => {
    const sb = await sandbox();
    const r = await sb.exec(
      `printf 'a\\nb\\n' | python -c "import sys; data=sys.stdin.read().split(); print(len(data)); print('oops', file=sys.stderr)"`,
    );
    expect(r.stdout).toBe("2\n");
    expect(r.stderr).toBe("oops\n");
    expect(r.exitCode).toBe(0);
  });

  it("files a script writes appear in the workspace and deletions are applied", async () => {
    const sb = await sandbox({ "old.txt": "x" });
    const r = await sb.exec(
      `python3 -c "import os; open('out/new.txt','w').write('hi') if os.makedirs('out', exist_ok=True) is None else 0; os.remove('old.txt')"`,
    );
    expect(r.exitCode).toBe(0);
    expect(await sb.fs.readText("/workspace/out/new.txt")).toBe("hi");
    expect(await sb.fs.exists("/workspace/old.txt")).toBe(false);
  });

  it("runs unittest discovery: failing, then passing after an edit", async () => {
    const sb = await sandbox({
      "calc.py": "def add(a, b):\n    return a - b\n",
      "test_calc.py":
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    });
    const fail = await sb.exec("python3 -m unittest");
    expect(fail.exitCode).toBe(1);
    expect(fail.stderr).toContain("FAILED (failures=1)");
    await sb.fs.writeFile("/workspace/calc.py", "def add(a, b):\n    return a + b\n");
    const pass = await sb.exec("python3 -m unittest -v");
    expect(pass.stderr).toContain("test_add (test_calc.T.test_add) ... ok");
    expect(pass.exitCode).toBe(0);
  });

  it("reports a missing module and a syntax error as a traceback with exit 1", async () => {
    const sb = await sandbox({ "bad.py": "def f(:\n" });
    const missing = await sb.exec(`python3 -c "import requests"`);
    expect(missing.stderr).toContain("ModuleNotFoundError: No module named 'requests'");
    expect(missing.exitCode).toBe(1);
    const syntax = await sb.exec("python3 bad.py");
    expect(syntax.stderr).toContain("SyntaxError");
    expect(syntax.exitCode).toBe(1);
  });

  it("a script's traceback starts at the script (no runpy frames), and input() with nothing piped says how to give it input", async () => {
    const sb = await sandbox({ "calc.py": "def f():\n    return 1 / 0\nf()\n", "ask.py": "name = input('Name? ')\nprint('hi', name)\n" });
    const r = await sb.exec("python3 calc.py");
    expect(r.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "calc\.py", line 3, in <module>\n/);
    expect(r.stderr).not.toContain("runpy");
    expect(r.stderr).toContain("ZeroDivisionError: division by zero");
    const asked = await sb.exec("python3 ask.py");
    expect(asked.stderr).toContain("EOFError");
    expect(asked.stderr).toContain("give it its input through a pipe, e.g. echo 42 | python3 script.py");
    // Another EOFError (an empty pickle) gets no such note.
    const pickled = await sb.exec(`python3 -c "import pickle, io; pickle.load(io.BytesIO(b''))"`);
    expect(pickled.stderr).toContain("EOFError");
    expect(pickled.stderr).not.toContain("through a pipe");
    const piped = await sb.exec("echo Ada | python3 ask.py");
    expect(piped.stdout).toBe("Name? hi Ada\n");
    expect(piped.stderr).toBe("");
  });

  it("deep recursion is a RecursionError, not a crash", async () => {
    const sb = await sandbox();
    const r = await sb.exec(`python3 -c "def f(n): return f(n+1)
f(0)"`);
    expect(r.stderr).toContain("RecursionError");
    expect(r.exitCode).toBe(1);
    expect((await sb.exec(`python3 -c "print(40+2)"`)).stdout).toBe("42\n");
  });

  it("a missing script, pip and python -m pip explain themselves", async () => {
    const sb = await sandbox();
    const r = await sb.exec("python3 nope.py");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("can't open file '/workspace/nope.py'");
    for (const cmd of ["pip install requests", "python3 -m pip install requests"]) {
      const pip = await sb.exec(cmd);
      expect(pip.exitCode).toBe(1);
      expect(pip.stderr).toContain("only Python's standard library is available");
    }
  });

  it("sees only the workspace: host files are absent and writes outside are not persisted", async () => {
    const sb = await sandbox();
    const r = await sb.exec(
      `python3 -c "import os; print(os.path.exists('/etc/passwd'), os.path.exists('/workspace/.git'), os.path.exists('/workspace/a'))"`,
    );
    expect(r.stdout).toBe("False False False\n");
    await sb.exec(`python3 -c "open('/tmp/escape.txt','w').write('x')"`);
    expect(await sb.fs.exists("/tmp/escape.txt")).toBe(false);
  });

  it("modules edited between runs are re-imported", async () => {
    const sb = await sandbox({
      "m.py": "X = 1\n",
      "main.py": "import m\nprint(m.X)\n",
    });
    expect((await sb.exec("python3 main.py")).stdout).toBe("1\n");
    await sb.fs.writeFile("/workspace/m.py", "X = 2\n");
    expect((await sb.exec("python3 main.py")).stdout).toBe("2\n");
  });

  it("huge output is cut with a note and the workspace stays intact", async () => {
    const sb = await sandbox({ "keep.txt": "safe" });
    const big = await sb.exec(`python3 -c "import sys
for i in range(120000): sys.stdout.write('x' * 40 + chr(10))"`);
    expect(big.stderr).toContain("python3: output truncated (more than 4 MB)");
    expect(big.stdout.length).toBeLessThan(5 * 1024 * 1024);
    expect(await sb.fs.readText("/workspace/keep.txt")).toBe("safe");
    expect((await sb.exec(`python3 -c "print('alive')"`)).stdout).toBe("alive\n");
  });

  it("only what the script changed comes back, same-size rewrites included; the next run starts from the workspace again", async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    const files = { "a.txt": enc("aaaa"), "b.txt": enc("bbbb"), "m.py": enc("X = 1\n") };
    const req = { files, cwd: "/workspace", stdin: "", env: {} };
    const first = await python.run({ ...req, args: ["-c", "open('a.txt','w').write('AAAA'); import m; print(m.X)"]});
    expect(first.stdout).toBe("1\n");
    expect(Object.keys(first.writes)).toEqual(["a.txt"]);
    // The workspace refused that write (say, a protect rule): the interpreter gets the file back as it is there.
    const second = await python.run(
{ ...req, files: { ...files, "m.py": enc("X = 2\n") }, args: ["-c", "import m; print(open('a.txt').read(), m.X)"] });
    expect(second.stdout).toBe("aaaa 2\n");
    expect(second.writes).toEqual({});
    expect(second.removes).toEqual([]);
  });

  it("an allocation beyond the interpreter's memory is a MemoryError in words, and the next run works", async () => {
    const sb = await sandbox({ "keep.txt": "safe" });
    const r = await sb.exec(`python3 -c "x = [0] * (2**31 - 1)"`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("MemoryError: the script used more memory than the sandbox allows");
    expect((await sb.exec(`python3 -c "print('alive')" && cat keep.txt`)).stdout).toBe("alive\nsafe");
  });

  it("a protect rule refuses the script's change to a protected file; its other changes are kept", async () => {
    const sb = await sandbox({ "config/app.json": "{}\n" });
    const policy = pathPolicy("/workspace", [[...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }]]);
    const r = await sb.exec(`python3 -c "open('config/app.json','w').write('broken'); open('out.txt','w').write('ok')"`, { guard: { policy } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^python3: config\/app\.json: write refused — protected by your rule/m);
    expect(await sb.fs.readText("/workspace/config/app.json")).toBe("{}\n");
    expect(await sb.fs.readText("/workspace/out.txt")).toBe("ok");
  });
});
