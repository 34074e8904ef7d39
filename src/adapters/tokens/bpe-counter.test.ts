import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { BytePairCounter } from "./bpe-counter";

/** Every `.ts`, `.tsx`, `.md` and `.json` file under `dir` (this repository's own text: code, prose, data), hidden folders skipped. */
function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.(tsx?|md|json)$/.test(name)) out.push(p);
  }
  return out;
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings drawn from many scripts, emoji, digits, punctuation and whitespace. */
function randomTexts(n: number, seed: number): string[] {
  const next = random(seed);
  const ranges: [number, number][] = [
    [0x20, 0x7e], // ASCII
    [0x09, 0x0d], // tabs and newlines
    [0xc0, 0x24f], // Latin with accents
    [0x370, 0x3ff], // Greek
    [0x400, 0x4ff], // Cyrillic
    [0x590, 0x6ff], // Hebrew, Arabic
    [0x900, 0x97f], // Devanagari
    [0x3040, 0x30ff], // kana
    [0x4e00, 0x4fff], // CJK
    [0xac00, 0xad00], // Hangul
    [0x1f300, 0x1f64f], // emoji
    [0x2000, 0x206f], // general punctuation (incl. zero-width)
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = "";
    const len = 1 + Math.floor(next() * 80);
    for (let j = 0; j < len; j++) {
      const [lo, hi] = ranges[Math.floor(next() * ranges.length)] ?? [0x61, 0x7a];
      s += String.fromCodePoint(lo + Math.floor(next() * (hi - lo + 1)));
      if (next() < 0.15) s += " ";
    }
    out.push(s);
  }
  return out;
}

const SAMPLES = [
  "",
  "a",
  "hello world",
  "héllo wörld, ça va? Grüße aus Köln",
  "你好世界，这是一个测试。日本語のテキストです。한국어 텍스트",
  "مرحبا بالعالم — שלום עולם",
  "Ελληνικά κείμενο και Русский текст",
  "🎉🎉👩‍👩‍👧‍👦 emoji and flags 🇩🇪🇯🇵",
  "   leading spaces\n\n\n\ttabs\r\n\r\nCRLF   ",
  " ".repeat(40),
  "\n".repeat(30),
  "1234567890 3.14159 1e-9 0xdeadBEEF 1,000,000",
  "<|endoftext|> <|fim_prefix|><|im_start|>user",
  "don't won't it's I'M YOU'LL they'VE",
  "https://example.com/path?query=1&x=%20y#frag",
  "a".repeat(60),
  "ab".repeat(31),
  "\u0000\u0001\u0002\u007f control",
  "\ud83d lone surrogate \udc00",
];

describe("BytePairCounter", () => {
  // The vocabularies' published sizes (without special tokens).
  for (const [name, data, vocabulary] of [
    ["o200k_base", o200k, 199_998],
    ["cl100k_base", cl100k, 100_256],
  ] as const) {
    describe(name, () => {
      const ours = BytePairCounter.build(data);
      const lib = new Tiktoken(data);
      const theirs = (t: string) => lib.encode(t, [], []).length;

      it("knows every token of the ranks", () => {
        expect(ours.size).toBe(vocabulary);
      });

      it("counts as js-tiktoken does on hand-picked samples", () => {
        for (const t of SAMPLES) expect([t, ours.count(t)]).toEqual([t, theirs(t)]);
      });

      it("counts as js-tiktoken does on this repository's code, prose and data", () => {
        const texts = files("src").concat(files("bench"), ["README.md", "AGENTS.md", "package.json"]).map((p) => readFileSync(p, "utf8"));
        expect(texts.length).toBeGreaterThan(100);
        let total = 0;
        let chars = 0;
        for (const t of texts) {
          // About 1.5 MB of text is plenty (the repository grows; the test's time should not).
          if (chars > 1_500_000) break;
          chars += t.length;
          // Files are compared in chunks so a difference names a small span of text.
          for (let at = 0; at < t.length; at += 2_000) {
            const chunk = t.slice(at, at + 2_000);
            const n = ours.count(chunk);
            if (n !== theirs(chunk)) expect([chunk, n]).toEqual([chunk, theirs(chunk)]);
            total += n;
          }
        }
        expect(total).toBeGreaterThan(100_000);
      });

      it("counts as js-tiktoken does on random text in many scripts", () => {
        for (const t of randomTexts(1_500, name.length)) {
          const n = ours.count(t);
          if (n !== theirs(t)) expect([t, n]).toEqual([t, theirs(t)]);
        }
      });
    });
  }
});
