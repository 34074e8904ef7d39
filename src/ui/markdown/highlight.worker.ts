/// <reference lib="webworker" />
/**
 * Syntax highlighting off the main thread: a finished code block's text comes in, its tree of spans
 * (plain data, no HTML) goes back. Compiling a grammar and highlighting a long block took tens of
 * milliseconds on the page while an answer streamed.
 */
import { highlight } from "./highlight";

export interface HighlightRequest {
  id: number;
  lang: string;
  code: string;
}

self.onmessage = (e: MessageEvent<HighlightRequest>) => {
  const { id, lang, code } = e.data;
  let nodes: ReturnType<typeof highlight>;
  try {
    nodes = highlight(lang, code);
  } catch {
    nodes = undefined;
  }
  self.postMessage({ id, nodes });
};
