import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { type ClassifyContext, classifyError } from "../../adapters/llm/classify-error";
import { errorHeadline } from "./error-box";

const ctx: ClassifyContext = { provider: "openai", apiKey: "sk-test-0123456789abcdef" };
function call(statusCode: number, error: Record<string, unknown>) {
  return new APICallError({
    message: String(error.message),
    url: "https://api.example.test/v1/x",
    requestBodyValues: {},
    statusCode,
    responseBody: JSON.stringify({ error }),
    responseHeaders: { "content-type": "application/json" },
  });
}
const title = (status: number, error: Record<string, unknown>) => errorHeadline(classifyError(call(status, error), ctx));

describe("error titles say what happened", () => {
  it("quota exhausted ≠ rate limited ≠ overloaded ≠ context too long ≠ key rejected", () => {
    const titles = [
      title(429, { message: "You exceeded your current quota, please check your plan and billing details.", type: "insufficient_quota", code: "insufficient_quota" }),
      title(402, { message: "Insufficient credits. Add more using https://openrouter.ai/credits", code: 402 }),
      title(429, { message: "Rate limit reached for gpt-5-mini on requests per min (RPM): Limit 3.", type: "requests", code: "rate_limit_exceeded" }),
      title(529, { type: "overloaded_error", message: "Overloaded" }),
      title(400, { message: "This model's maximum context length is 128000 tokens.", code: "context_length_exceeded" }),
      title(401, { message: "Incorrect API key provided.", code: "invalid_api_key" }),
      title(500, { message: "The server had an error while processing your request." }),
    ];
    expect(titles).toEqual([
      "Your quota or credit with the provider is used up",
      "Your quota or credit with the provider is used up",
      "Rate limited by the provider",
      "The provider is overloaded",
      "The conversation is too long for this model's context window",
      "The provider rejected the API key",
      "The provider had a server error (HTTP 500)",
    ]);
  });
});

describe("an overflow no summary can fix", () => {
  it("has a headline of its own", () => {
    const floor = errorHeadline({ name: "ContextOverflowError", data: { kind: "floor", message: "…" } });
    expect(floor).toBe("Too large for this model, even after a summary");
    expect(errorHeadline({ name: "ContextOverflowError", data: { message: "…" } })).not.toBe(floor);
  });
});
