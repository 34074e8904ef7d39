import type { ToolPart } from "../schema";

/** Whether a tool part is one the provider ran itself (shown as a card; never executed by tabcode, never sent back as a tool call or result). */
export function isServerTool(p: ToolPart): boolean {
  return p.metadata?.providerExecuted === true;
}
