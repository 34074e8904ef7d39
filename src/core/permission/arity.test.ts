import { describe, expect, it } from "vitest";
import examples from "./__fixtures__/opencode-arity-examples.json";
import { bashPatterns, prefix } from "./arity";

const tokens = (s: string) => s.split(" ");

describe("prefix (arity table)", () => {
  it.each([
    ["git checkout main", "git checkout"],
    ["npm run dev --port 3", "npm run dev"],
    ["ls -la", "ls"],
    ["ls", "ls"],
    ["rm -rf build", "rm"],
    ["cat a b c", "cat"],
    ["git status", "git status"],
    ["git stash pop", "git stash pop"],
    ["git config --global user.name x", "git config --global user.name"],
    ["docker compose up -d", "docker compose up"],
    ["bun x vitest run", "bun x vitest"],
    ["gh pr view 12", "gh pr view"],
    ["kubectl rollout status deploy/x", "kubectl rollout status"],
    ["kubectl get pods", "kubectl get"],
    ["python -m pytest -x", "python -m pytest"],
    ["python script.py --flag", "python script.py"],
    ["/usr/bin/git log -5", "/usr/bin/git log"],
    ["unknowncmd sub arg", "unknowncmd"],
  ])("%s → %s", (cmd, expected) => {
    expect(prefix(tokens(cmd))).toBe(expected);
  });

  it("keeps flags that sit between the counted tokens, so the pattern matches the command", () => {
    expect(prefix(tokens("git --no-pager log -5"))).toBe("git --no-pager log");
    expect(prefix(tokens("npm --silent run build"))).toBe("npm --silent run build");
  });

  it("never counts a flag as the command", () => {
    expect(prefix(tokens("-x"))).toBe("-x");
    expect(prefix([])).toBe("");
  });
});

describe("bashPatterns", () => {
  it("gives one pattern per simple command and arity-based always patterns", () => {
    expect(bashPatterns("git checkout main && npm run dev --port 3")).toEqual({
      patterns: ["git checkout main", "npm run dev --port 3"],
      always: ["git checkout *", "npm run dev *"],
    });
  });

  it("normalises whitespace, quotes and escapes", () => {
    expect(bashPatterns("  git   commit  -m \"fix bug\"  ").patterns).toEqual(["git commit -m 'fix bug'"]);
    expect(bashPatterns("'r'm  x").patterns).toEqual(["rm x"]);
  });

  it("checks wrapped commands both with and without their wrapper", () => {
    expect(bashPatterns("sudo rm -rf /tmp/x")).toEqual({
      patterns: ["sudo rm -rf /tmp/x", "rm -rf /tmp/x"],
      always: ["sudo rm *", "rm *"],
    });
  });

  it("adds the bare program name when a path is used", () => {
    expect(bashPatterns("/bin/rm x").patterns).toEqual(["/bin/rm x", "rm x"]);
  });

  it("includes nested commands", () => {
    expect(bashPatterns("echo $(date)").patterns).toEqual(["date", "echo $(date)"]);
  });

  it("adds a pattern for each file a redirection writes (not /dev/null)", () => {
    expect(bashPatterns("cat a > b.txt 2>/dev/null")).toEqual({ patterns: ["cat a", "> b.txt"], always: ["cat *", "> b.txt"] });
  });

  it("forces a question for input it cannot analyse, with no always option", () => {
    const r = bashPatterns("echo 'oops");
    expect(r.mustAsk).toMatch(/quote/);
    expect(r.always).toEqual([]);
    expect(r.patterns).toEqual(["echo 'oops"]);
  });

  it("never returns an empty pattern list", () => {
    expect(bashPatterns("FOO=1").patterns).toEqual(["FOO=1"]);
    expect(bashPatterns("").patterns).toEqual([""]);
  });
});

/** The first `n` non-flag words of a command, with any flags between them. */
function expectedPrefix(words: string[], n: number): string {
  let seen = 0;
  let end = 0;
  words.forEach((w, i) => {
    if (seen < n && (i === 0 || !w.startsWith("-"))) {
      seen++;
      end = i + 1;
    }
  });
  return words.slice(0, end).join(" ");
}

/** The arity OpenCode's table gives a command: its longest matching key wins (`ip link show` → `ip link`: 3). */
function publishedArity(words: string[]): number {
  const operands = words.filter((w, i) => i === 0 || !w.startsWith("-"));
  for (let n = operands.length; n > 0; n--) {
    const hit = examples.find((e) => e.key === operands.slice(0, n).join(" "));
    if (hit) return hit.arity;
  }
  return 1;
}

describe("arity table against OpenCode's published examples", () => {
  it.each(examples.map((e) => [e.example, e.key] as const))("%s (%s)", (example) => {
    const words = example.split(" ");
    expect(prefix(words)).toBe(expectedPrefix(words, publishedArity(words)));
  });

  it("stores `consul kv get *`, not `consul *`", () => {
    expect(bashPatterns("consul kv get config/app").always).toEqual(["consul kv get *"]);
  });
});
