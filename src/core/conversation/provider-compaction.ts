import type { MessageWithParts, Part } from "../schema";

/**
 * A compaction the provider did on its side (OpenAI Responses' encrypted
 * `compaction` item, Anthropic's `compaction` block): stored as a text part
 * whose provider metadata says `type: "compaction"`, sent back as it came.
 * Its summary is the provider's: tabcode can neither read (OpenAI) nor edit it.
 */
export function providerCompactionOf(p: Part): "openai" | "anthropic" | undefined {
  if (p.type !== "text" || p.ignored) return undefined;
  for (const provider of ["openai", "anthropic"] as const) {
    const meta = p.metadata?.[provider];
    if (meta !== null && typeof meta === "object" && !Array.isArray(meta) && (meta as { type?: unknown }).type === "compaction") return provider;
  }
  return undefined;
}

/** A finished assistant message that carries a provider compaction: the provider ignores what came before it. */
export function compactedByProvider(m: MessageWithParts): boolean {
  const info = m.info;
  return info.role === "assistant" && info.finish !== undefined && !info.error && m.parts.some((p) => providerCompactionOf(p) !== undefined);
}
