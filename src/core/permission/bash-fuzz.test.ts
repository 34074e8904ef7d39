/**
 * Fuzz test: thousands of generated command lines (seeded, reproducible) hide
 * an `rm` in every position a shell allows — after operators, in pipes,
 * subshells, groups, substitutions, here-documents, behind env prefixes,
 * wrappers and `bash -c` — and the ruleset `[* allow, bash "rm *" deny]` must
 * never let one through, even with a blanket "always" approval on top.
 */
import { describe, expect, it } from "vitest";
import type { Ruleset } from "../schema";
import { bashPatterns } from "./arity";
import { decideAsk } from "./evaluate";
import { mulberry32 as prng } from "../../testing/prng";

const RULES: Ruleset = [
  { permission: "*", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "rm *", action: "deny" },
];
const APPROVE_ALL: Ruleset = [{ permission: "bash", pattern: "*", action: "allow" }];

function verdict(command: string, approvals: Ruleset = []): string {
  return decideAsk({ permission: "bash", ...bashPatterns(command) }, [RULES], approvals).action;
}


interface Gen {
  text: string;
  rm: boolean;
}

const BENIGN = ["echo hi", "ls -la", 'cat "a b"', "grep -r 'rm -rf' .", "git status", "printf '%s\\n' x", "echo rm", "cd sub", "true",
  "git rm --cached x", "rmdir empty", "npm run rm", "cat rm.txt", "firm x", "echo 'a;rm b'", 'echo "$HOME"', "wc -l < in.txt"];
const RM_WORDS = ["rm", "'rm'", '"rm"', "r''m", "\\rm", "/bin/rm", "/usr/bin/rm", "r\\\nm", "$'rm'", '"r"m'];
const RM_ARGS = ["-rf /", "x", '"a b"', "-f -- -x", "", "-r dir/", "*.log"];
const PREFIXES = ["", "", "", "FOO=1 ", 'A="x y" ', "B=$(echo z) ", "sudo ", "sudo -u root ", "env FOO=1 ", "nice -n 5 ", "time ", "nohup ",
  "command ", "timeout 5 ", "xargs ", "exec ", "builtin ", "sudo env X=1 nice "];
const REDIRS = ["", "", " > out", " 2>&1", " < in", " >>log", " 2>/dev/null", " &>x"];

class Fuzzer {
  heredocs = 0;
  constructor(private readonly r: () => number) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)] as T;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }

  simple(): Gen {
    if (this.chance(0.35)) {
      const rm = `${this.pick(RM_WORDS)} ${this.pick(RM_ARGS)}`.trimEnd();
      const redir = this.pick(REDIRS);
      return { text: this.chance(0.2) ? `${redir.trim()} ${rm}`.trim() : `${this.pick(PREFIXES)}${rm}${redir}`, rm: true };
    }
    return { text: `${this.chance(0.2) ? this.pick(PREFIXES) : ""}${this.pick(BENIGN)}${this.pick(REDIRS)}`, rm: false };
  }

  gen(depth: number): Gen {
    if (depth <= 0 || this.chance(0.3)) return this.simple();
    const a = this.gen(depth - 1);
    // `$((` would be arithmetic, which runs nothing: keep command substitutions apart.
    const sub = `$(${a.text.startsWith("(") ? " " : ""}${a.text})`;
    const both = (b: Gen, text: string): Gen => ({ text, rm: a.rm || b.rm });
    switch (Math.floor(this.r() * 16)) {
      case 0: { const b = this.gen(depth - 1); return both(b, `${a.text} ${this.pick(["&&", "||", ";", "|", "&", "|&"])} ${b.text}`); }
      case 1: { const b = this.gen(depth - 1); return both(b, `${a.text}\n${b.text}`); }
      case 2: return { text: `(${a.text})`, rm: a.rm };
      case 3: { const b = this.gen(depth - 1); return both(b, `{ ${a.text}; ${b.text}; }`); }
      case 4: return { text: `echo ${sub}`, rm: a.rm };
      case 5: return { text: `echo "x ${sub} y"`, rm: a.rm };
      case 6: return /[`\\]/.test(a.text) ? { text: `X=${sub}`, rm: a.rm } : { text: `echo \`${a.text}\``, rm: a.rm };
      case 7: return { text: `cat <(${a.text}) ${this.pick(["", "> o"])}`.trim(), rm: a.rm };
      case 8: return { text: `bash -c '${a.text.replaceAll("'", "'\\''")}'`, rm: a.rm };
      case 9: return { text: `${this.pick(["sh -c", "sudo bash -lc", "eval"])} "${a.text.replace(/[\\"$`]/g, "\\$&")}"`, rm: a.rm };
      case 10: { const b = this.gen(depth - 1); return both(b, `if ${a.text}; then ${b.text}; fi`); }
      case 11: { const b = this.gen(depth - 1); return both(b, `while ${a.text}; do ${b.text}; done`); }
      case 12: return { text: `! ${a.text}`, rm: a.rm };
      case 13: return { text: `echo \${v:-${sub}}`, rm: a.rm };
      case 14: {
        const tag = `EOF${this.heredocs++}`;
        if (this.chance(0.3)) return { text: `echo "x $(cat <<${tag}\n${sub}\n${tag}) y"`, rm: a.rm };
        return { text: `{ cat <<${tag} > f\nline ${sub}\n${tag}\n}`, rm: a.rm };
      }
      default: return this.chance(0.5) ? { text: "find . -name '*.tmp' -exec rm {} \\;", rm: true } : { text: `{ cat <<'Q${this.heredocs++}'\nrm -rf /\nQ${this.heredocs - 1}\n}`, rm: false };
    }
  }
}

describe("bash permission fuzz: [* allow, bash 'rm *' deny] is never bypassed", () => {
  const f = new Fuzzer(prng(20240611));
  const cases = Array.from({ length: 6000 }, () => f.gen(4));

  it("generates a good mix", () => {
    const withRm = cases.filter((c) => c.rm).length;
    expect(withRm).toBeGreaterThan(1500);
    expect(cases.length - withRm).toBeGreaterThan(1000);
  });

  it("denies every command line that runs rm, even over an 'always allow everything' approval", () => {
    const missed = cases.filter((c) => c.rm && (verdict(c.text) !== "deny" || verdict(c.text, APPROVE_ALL) !== "deny"));
    expect(missed.map((c) => c.text).slice(0, 5)).toEqual([]);
  });

  it("allows the ones that do not run rm (so the check is not a blanket refusal)", () => {
    const wrong = cases.filter((c) => !c.rm && verdict(c.text) !== "allow");
    expect(wrong.map((c) => c.text).slice(0, 5)).toEqual([]);
  });

  it("never allows a corrupted line that contains rm, and asks for corrupted ones without it", () => {
    const r = prng(7);
    for (const c of cases.slice(0, 2000)) {
      const broken = `${c.text}${["'", '"', "$(", "`", " (", " )", " ${x"][Math.floor(r() * 7)]}`;
      const v = verdict(broken, APPROVE_ALL);
      if (c.rm) expect.soft(v, broken).not.toBe("allow");
      else expect.soft(v, broken).toBe("ask");
    }
  });

  it("asks (never allows) when a stray quote is inserted into a line that has no other quotes", () => {
    // With no other quote, escape or here-document, one inserted quote can never be closed: bash refuses the line.
    const r = prng(99);
    const plain = cases.filter((c) => !/['"\\]|<</.test(c.text));
    for (const c of plain) {
      const spots = [...c.text.matchAll(/ (?=\S)/g)].map((m) => (m.index ?? 0) + 1);
      const at = spots[Math.floor(r() * spots.length)] ?? 0;
      const broken = `${c.text.slice(0, at)}${r() < 0.5 ? "'" : '"'}${c.text.slice(at)}`;
      const v = verdict(broken, APPROVE_ALL);
      if (c.rm) expect.soft(v, broken).not.toBe("allow");
      else expect.soft(v, broken).toBe("ask");
    }
    expect(plain.length).toBeGreaterThan(500);
  });
});
