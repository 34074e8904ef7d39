/**
 * The providers tabcode talks to, as stored in settings. Kept apart from the presets
 * (`providers.ts`: labels, hints, base URLs), which only Settings and the adapters need:
 * the settings schema is part of the first screen, the presets' text is not.
 */
import { z } from "./zod";

export const ProviderKind = z.enum([
  "demo",
  "openai",
  "anthropic",
  "google",
  "deepseek",
  "mistral",
  "groq",
  "xai",
  "openrouter",
  "openai-compatible",
]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/**
 * Media a tool result can carry on a provider's API (the rest reaches the model as a text placeholder):
 * Responses, Messages and Gemini take images and PDFs in tool results, xAI's Responses images; Chat
 * Completions tool messages are text. The demo model takes none.
 */
export type ToolResultMedia = "images-and-pdf" | "images" | "none";

export const TOOL_RESULT_MEDIA: Readonly<Record<ProviderKind, ToolResultMedia>> = {
  demo: "none",
  openai: "images-and-pdf",
  anthropic: "images-and-pdf",
  google: "images-and-pdf",
  deepseek: "none",
  mistral: "none",
  groq: "none",
  xai: "images",
  openrouter: "none",
  "openai-compatible": "none",
};
