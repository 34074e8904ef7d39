/**
 * The tokenizer Web Worker: loads js-tiktoken ranks lazily and answers
 * count requests, keeping BPE work off the page's main thread.
 */
import { type CountRequest, handleCountRequest } from "./tokenizer-protocol";

const scope = self as unknown as { onmessage: ((ev: MessageEvent<CountRequest>) => void) | null; postMessage(msg: unknown): void };

scope.onmessage = (ev) => {
  void handleCountRequest(ev.data).then((res) => scope.postMessage(res));
};
