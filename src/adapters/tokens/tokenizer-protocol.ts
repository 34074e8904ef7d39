/**
 * Messages between the page-side token counter and the tokenizer worker,
 * and the worker's request handler (kept here so tests can run it in-process).
 */
import { countTexts } from "./tiktoken-counter";

export interface CountRequest {
  id: number;
  texts: string[];
  encoding: string;
}

export type CountResponse = { id: number; ok: true; counts: number[] } | { id: number; ok: false; error: string };

/** Answers one request (never throws). */
export async function handleCountRequest(req: CountRequest): Promise<CountResponse> {
  try {
    return { id: req.id, ok: true, counts: await countTexts(req.texts, req.encoding) };
  } catch (e) {
    return { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
