/**
 * The model worker: the AI SDK adapter runs here, off the page's main thread.
 * Turning a long history into the provider's request body, sending it and
 * parsing the streamed answer take tens of milliseconds a step in a long
 * session (and the SDK's modules a first evaluation), none of which may hold
 * the page while it renders the answer.
 */
import { createAiSdkLLM } from "./ai-sdk-llm";
import { type LLMWorkerReply, type LLMWorkerRequest, serveLLM } from "./llm-protocol";
import { rehearse } from "./rehearse";

const scope = self as unknown as { onmessage: ((ev: MessageEvent<LLMWorkerRequest>) => void) | null; postMessage(msg: LLMWorkerReply): void };

// Each provider's request path is rehearsed once when it is preloaded (a made-up conversation, a fetch that sends nothing).
const serve = serveLLM(createAiSdkLLM({ rehearse }), (reply) => scope.postMessage(reply));
scope.onmessage = (ev) => serve(ev.data);
