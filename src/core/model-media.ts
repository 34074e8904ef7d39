/**
 * Which media a model receives inside tool results: the provider's API shape
 * decides what a tool result can carry (`TOOL_RESULT_MEDIA`) and
 * the model table knows the text-only families. Everything else reaches the
 * model as a `[Attached mime: name]` placeholder.
 */
import { acceptsImages, takesMedia } from "./model-table";
import type { ModelConfig } from "./ports/llm";
import { TOOL_RESULT_MEDIA } from "./provider-kind";

/** A predicate on an attachment's media type: true when the model gets it as a media part. */
export type MediaFilter = (mime: string) => boolean;

export const NO_MEDIA: MediaFilter = () => false;

/** The tool-result media a model takes (none for the demo model, Chat Completions APIs and text-only models). */
export function toolResultMedia(model: Pick<ModelConfig, "provider" | "modelID">): MediaFilter {
  const accepts = Object.hasOwn(TOOL_RESULT_MEDIA, model.provider) ? TOOL_RESULT_MEDIA[model.provider] : "none";
  if (accepts === "none" || !takesMedia(model.modelID)) return NO_MEDIA;
  if (accepts === "images") return (mime) => mime.startsWith("image/");
  return (mime) => mime.startsWith("image/") || mime === "application/pdf";
}

/**
 * How a model's requests carry media (`toModelMessages` options): tool-result media it takes, and whether
 * user images reach it. Every request built for the model uses these, so each repeats the same bytes.
 */
export function modelMessageOptions(model: Pick<ModelConfig, "provider" | "modelID">): { toolMedia: MediaFilter; images: boolean } {
  return { toolMedia: toolResultMedia(model), images: acceptsImages(model.modelID) !== false };
}
