/**
 * Chat Completions answers for the mock server (`POST /v1/chat/completions`): the SSE chunks of a
 * streamed reply in the shape OpenAI sends them, and the JSON body of a non-streamed one.
 */
import { finishOf, joinText, type ReplyTurn, splitArgs, splitText, type Usage } from "./script";
import type { Frame, Ids } from "./sse";

/** Request facts the chat answer depends on. */
export interface ChatRequest {
  model: string;
  includeUsage: boolean;
}

function usageJson(u: Usage): Record<string, unknown> {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The stream events of one reply, ending with `[DONE]`. */
export function chatFrames(reply: ReplyTurn, req: ChatRequest, usage: Usage, ids: Ids): Frame[] {
  const id = ids.next("chatcmpl-mock");
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): Frame => ({
    data: JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: req.model,
      service_tier: "default",
      system_fingerprint: "fp_mock",
      choices,
      usage: null,
      ...extra,
    }),
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  const reasoning = splitText(reply.reasoning);
  const text = splitText(reply.text);
  const calls = (reply.toolCalls ?? []).map((c) => ({
    ...c,
    id: c.id ?? ids.next("call_mock"),
    json: JSON.stringify(c.args),
  }));
  const frames: Frame[] = [];

  // A reply that is only tool calls opens with the role and the first call header in one chunk, as OpenAI does.
  const toolOnly = reasoning.length === 0 && text.length === 0 && calls.length > 0;
  if (!toolOnly) frames.push(delta({ role: "assistant", content: "", refusal: null }));
  for (const piece of reasoning) frames.push(delta({ reasoning_content: piece }));
  for (const piece of text) frames.push(delta({ content: piece }));
  calls.forEach((call, index) => {
    const header = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
    frames.push(
      delta(
        index === 0 && toolOnly
          ? { role: "assistant", content: null, tool_calls: [header], refusal: null }
          : { tool_calls: [header] },
      ),
    );
    for (const piece of splitArgs(call.json))
      frames.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  frames.push(delta({}, finishOf(reply)));
  if (req.includeUsage) frames.push(chunk([], { usage: usageJson(usage) }));
  frames.push({ data: "[DONE]" });
  return frames;
}

/** A chunk whose JSON is cut in the middle (for the malformed-stream fault). */
export function chatMalformedFrame(req: ChatRequest): Frame {
  return {
    data: `{"id":"chatcmpl-broken","object":"chat.completion.chunk","model":"${req.model}","choices":[{"index":0,"delta":{"content":"oops`,
  };
}

/** The body of a non-streamed reply (`stream` absent or false). */
export function chatBody(reply: ReplyTurn, req: ChatRequest, usage: Usage, ids: Ids): Record<string, unknown> {
  const calls = (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? ids.next("call_mock"),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  const text = joinText(reply.text);
  const reasoning = joinText(reply.reasoning);
  return {
    id: ids.next("chatcmpl-mock"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text === "" && calls.length > 0 ? null : text,
          refusal: null,
          ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: finishOf(reply),
      },
    ],
    usage: usageJson(usage),
    service_tier: "default",
    system_fingerprint: "fp_mock",
  };
}
