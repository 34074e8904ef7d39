import { describe, expect, it } from "vitest";
import { namedError } from "../errors";
import { RETRY_MAX_MS, retryDelay, retryMessage } from "./retry";

const err = (headers?: Record<string, string>, statusCode = 429) => namedError("APIError", { message: "slow down", statusCode, isRetryable: true, ...(headers ? { responseHeaders: headers } : {}) });

describe("retry", () => {
  it("honours retry-after-ms, then retry-after in seconds or as a date", () => {
    expect(retryDelay(1, err({ "Retry-After-Ms": "1500" }), 0)).toBe(1500);
    expect(retryDelay(1, err({ "retry-after": "3" }), 0)).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryDelay(1, err({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
  });

  it("backs off 2 s × 2^(attempt−1), capped at 30 s", () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelay(a, err(), 0))).toEqual([2000, 4000, 8000, 16000, RETRY_MAX_MS, RETRY_MAX_MS]);
  });

  it("says in words why it waits", () => {
    expect(retryMessage(err())).toBe("Rate limited by the provider");
    expect(retryMessage(err(undefined, 503))).toBe("The provider is overloaded or failing");
  });
});
