import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { countTexts, countWith, createTiktokenCounter, loadEncoder } from "./tiktoken-counter";

describe("tiktoken counter", () => {
  const counter = createTiktokenCounter();
  // js-tiktoken's own encoder, the oracle (built once: about a second).
  const lib = new Tiktoken(o200k);

  it("picks o200k_base or cl100k_base by model id", () => {
    expect(counter.encodingFor("gpt-4o-mini")).toBe("o200k_base");
    expect(counter.encodingFor("gpt-5")).toBe("o200k_base");
    expect(counter.encodingFor("gpt-4")).toBe("cl100k_base");
    expect(counter.encodingFor("qwen2.5-coder:7b")).toBe("cl100k_base");
  });

  it("counts exactly in each encoding", async () => {
    const texts = ["hello world", "Привет, как дела? 你好世界", ""];
    expect(await counter.count(texts, "o200k_base")).toEqual([2, 9, 0]);
    expect(await counter.count(texts, "cl100k_base")).toEqual([2, 14, 0]);
  });

  it("counts special-token markers inside text as text instead of throwing", async () => {
    expect(() => lib.encode("a <|endoftext|> b")).toThrow(); // js-tiktoken's default
    expect(await counter.count(["<|endoftext|>", "x <|endoftext|> y", "<|fim_prefix|><|im_start|>"], "o200k_base")).toEqual([7, 9, 11]);
    expect(await counter.count(["<|endoftext|>"], "cl100k_base")).toEqual([7]);
  });

  it("slices pathological runs (CJK without spaces, repeated characters) instead of stalling", async () => {
    const enc = await loadEncoder("o200k_base");
    const cjk = "日本語".repeat(700);
    const slices = cjk.match(/[\s\S]{1,12}/gu) ?? [];
    const sum = slices.reduce((n, s) => n + lib.encode(s, [], []).length, 0);
    expect(countWith(enc, cjk)).toBe(sum);
    expect(countWith(enc, cjk)).toBe(1_400); // unsliced: 1,400 too
    expect(countWith(enc, "A".repeat(1_000))).toBe(125);
    expect(countWith(enc, `${"-".repeat(5_000)}\n${" ".repeat(5_000)}x`)).toBeGreaterThan(0);
    // Ordinary text is untouched by slicing.
    const code = "export function add(a: number, b: number): number {\n  return a + b;\n}\n".repeat(50);
    expect(countWith(enc, code)).toBe(lib.encode(code, [], []).length);
  });

  it("estimates for encodings it does not ship", async () => {
    expect(await countTexts(["abcdefgh"], "estimate")).toEqual([2]);
    expect(await countTexts(["abcdefgh"], "p50k_base")).toEqual([2]);
  });
});
