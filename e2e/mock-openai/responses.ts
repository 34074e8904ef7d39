/**
 * Responses API answers for the mock server (`POST /v1/responses`): the `event:`/`data:` stream
 * of a reply (reasoning summary item, message item, function_call items) in the order OpenAI
 * sends them, and the final response object used for non-streamed requests.
 */
import { finishOf, joinText, type ReplyTurn, splitArgs, splitText, type Usage } from "./script";
import type { Frame, Ids } from "./sse";

/** Request facts the Responses answer depends on. */
export interface ResponsesRequest {
  model: string;
  store: boolean;
  /** The request asked for `reasoning.encrypted_content` in `include`. */
  encryptedReasoning: boolean;
}

type Json = Record<string, unknown>;

function usageJson(u: Usage): Json {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
}

/** Everything needed to emit one reply: ids fixed up front so stream and body agree. */
interface Plan {
  id: string;
  created: number;
  reasoning: { id: string; deltas: string[]; text: string } | undefined;
  message: { id: string; deltas: string[]; text: string } | undefined;
  calls: { id: string; callId: string; name: string; args: string }[];
}

function plan(reply: ReplyTurn, ids: Ids): Plan {
  const reasoningText = joinText(reply.reasoning);
  const text = joinText(reply.text);
  return {
    id: ids.next("resp_mock"),
    created: Math.floor(Date.now() / 1000),
    reasoning:
      reply.reasoning === undefined
        ? undefined
        : { id: ids.next("rs_mock"), deltas: splitText(reply.reasoning), text: reasoningText },
    message: reply.text === undefined ? undefined : { id: ids.next("msg_mock"), deltas: splitText(reply.text), text },
    calls: (reply.toolCalls ?? []).map((c) => ({
      id: ids.next("fc_mock"),
      callId: c.id ?? ids.next("call_mock"),
      name: c.name,
      args: JSON.stringify(c.args),
    })),
  };
}

const textPart = (text: string): Json => ({ type: "output_text", annotations: [], logprobs: [], text });

function outputItems(p: Plan, req: ResponsesRequest): Json[] {
  const items: Json[] = [];
  if (p.reasoning) {
    items.push({
      id: p.reasoning.id,
      type: "reasoning",
      ...(req.encryptedReasoning
        ? { encrypted_content: Buffer.from(`mock-reasoning:${p.reasoning.id}`).toString("base64") }
        : {}),
      summary: [{ type: "summary_text", text: p.reasoning.text }],
    });
  }
  if (p.message) {
    items.push({
      id: p.message.id,
      type: "message",
      status: "completed",
      content: [textPart(p.message.text)],
      role: "assistant",
    });
  }
  for (const c of p.calls)
    items.push({
      id: c.id,
      type: "function_call",
      status: "completed",
      arguments: c.args,
      call_id: c.callId,
      name: c.name,
    });
  return items;
}

function responseObject(
  p: Plan,
  reply: ReplyTurn,
  req: ResponsesRequest,
  final: { usage: Usage; output: Json[] } | undefined,
): Json {
  const incomplete = final !== undefined && finishOf(reply) === "length";
  return {
    id: p.id,
    object: "response",
    created_at: p.created,
    status: final === undefined ? "in_progress" : incomplete ? "incomplete" : "completed",
    background: false,
    error: null,
    incomplete_details: incomplete ? { reason: "max_output_tokens" } : null,
    instructions: null,
    max_output_tokens: null,
    model: req.model,
    output: final?.output ?? [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: "default",
    store: req.store,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: final === undefined ? null : usageJson(final.usage),
    user: null,
    metadata: {},
  };
}

/** The stream events of one reply, from `response.created` to `response.completed` (or `.incomplete`). */
export function responsesFrames(reply: ReplyTurn, req: ResponsesRequest, usage: Usage, ids: Ids): Frame[] {
  const p = plan(reply, ids);
  const frames: Frame[] = [];
  let seq = 0;
  const emit = (type: string, body: Json) => {
    frames.push({ event: type, data: JSON.stringify({ type, ...body, sequence_number: seq }) });
    seq += 1;
  };
  const items = outputItems(p, req);
  let outputIndex = 0;

  emit("response.created", { response: responseObject(p, reply, req, undefined) });
  emit("response.in_progress", { response: responseObject(p, reply, req, undefined) });
  if (p.reasoning) {
    const r = p.reasoning;
    const output_index = outputIndex++;
    const added = req.encryptedReasoning
      ? { id: r.id, type: "reasoning", encrypted_content: null, summary: [] }
      : { id: r.id, type: "reasoning", summary: [] };
    emit("response.output_item.added", { item: added, output_index });
    emit("response.reasoning_summary_part.added", {
      item_id: r.id,
      output_index,
      part: { type: "summary_text", text: "" },
      summary_index: 0,
    });
    for (const delta of r.deltas)
      emit("response.reasoning_summary_text.delta", { delta, item_id: r.id, output_index, summary_index: 0 });
    emit("response.reasoning_summary_text.done", { item_id: r.id, output_index, summary_index: 0, text: r.text });
    emit("response.reasoning_summary_part.done", {
      item_id: r.id,
      output_index,
      part: { type: "summary_text", text: r.text },
      summary_index: 0,
    });
    emit("response.output_item.done", { item: items[output_index], output_index });
  }
  if (p.message) {
    const m = p.message;
    const output_index = outputIndex++;
    emit("response.output_item.added", {
      item: { id: m.id, type: "message", status: "in_progress", content: [], role: "assistant" },
      output_index,
    });
    emit("response.content_part.added", { content_index: 0, item_id: m.id, output_index, part: textPart("") });
    for (const delta of m.deltas)
      emit("response.output_text.delta", { content_index: 0, delta, item_id: m.id, logprobs: [], output_index });
    emit("response.output_text.done", { content_index: 0, item_id: m.id, logprobs: [], output_index, text: m.text });
    emit("response.content_part.done", { content_index: 0, item_id: m.id, output_index, part: textPart(m.text) });
    emit("response.output_item.done", { item: items[output_index], output_index });
  }
  for (const c of p.calls) {
    const output_index = outputIndex++;
    const item = {
      id: c.id,
      type: "function_call",
      status: "in_progress",
      arguments: "",
      call_id: c.callId,
      name: c.name,
    };
    emit("response.output_item.added", { item, output_index });
    for (const delta of splitArgs(c.args))
      emit("response.function_call_arguments.delta", { delta, item_id: c.id, output_index });
    emit("response.function_call_arguments.done", { arguments: c.args, item_id: c.id, output_index });
    emit("response.output_item.done", { item: items[output_index], output_index });
  }
  const done = responseObject(p, reply, req, { usage, output: items });
  emit(done.status === "incomplete" ? "response.incomplete" : "response.completed", { response: done });
  return frames;
}

/** An event whose JSON is cut in the middle (for the malformed-stream fault). */
export function responsesMalformedFrame(): Frame {
  return {
    event: "response.output_text.delta",
    data: '{"type":"response.output_text.delta","item_id":"msg_broken","delta":"oops',
  };
}

/** The final response object of a non-streamed reply (`stream` absent or false). */
export function responsesBody(reply: ReplyTurn, req: ResponsesRequest, usage: Usage, ids: Ids): Json {
  const p = plan(reply, ids);
  return responseObject(p, reply, req, { usage, output: outputItems(p, req) });
}
