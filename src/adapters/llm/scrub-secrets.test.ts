import { describe, expect, it } from "vitest";
import { scrubHeaders, scrubSecrets } from "./scrub-secrets";

describe("scrubSecrets", () => {
  it("removes every occurrence of the configured key, whatever its shape", () => {
    expect(scrubSecrets("key=lm-studio-custom-key and again lm-studio-custom-key", "lm-studio-custom-key")).toBe(
      "key=[redacted] and again [redacted]",
    );
  });

  it("removes well-known provider key shapes even when no key is configured", () => {
    const text = "a sk-proj-abcdefghijklmnop1234 b sk-ant-api03-abcdefghijklmnop c gsk_abcdefghijklmnopqrstu d AIzaSyA1234567890abcdefghijklmnopqrstu";
    const out = scrubSecrets(text);
    expect(out).not.toMatch(/sk-proj-abc|sk-ant-api03|gsk_abc|AIzaSy/);
    expect(out.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it("removes bearer tokens and keys in query strings", () => {
    expect(scrubSecrets("Authorization: Bearer abc.def-ghi_jkl")).toBe("Authorization: Bearer [redacted]");
    expect(scrubSecrets("GET https://h/v1/models?key=abcdef123&x=1")).toBe("GET https://h/v1/models?key=[redacted]&x=1");
  });

  it("leaves ordinary text alone, including OpenAI's own masked key and tiny placeholder keys", () => {
    const masked = "Incorrect API key provided: sk-proj-****abcd.";
    expect(scrubSecrets(masked)).toBe(masked);
    expect(scrubSecrets("the task is done", "x")).toBe("the task is done");
  });
});

describe("scrubHeaders", () => {
  it("drops authorization and scrubs values", () => {
    expect(scrubHeaders({ authorization: "Bearer s3cr3t-value", "x-echo": "key sk-abcdefghijklmnopqrst", "retry-after": "3" })).toEqual({
      "x-echo": "key [redacted]",
      "retry-after": "3",
    });
  });
});
