import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { compactionOrigin } from "../../core/conversation/compaction-origin";
import type { MessageWithParts } from "../../core/schema";
import type { SystemEventKind } from "../../core/conversation/system-event";
import { type MessageActions, MessageActionsContext } from "../hooks/message-actions";
import { compactionWords } from "./system-event";
import { SystemEventView } from "./system-event-view";

const request = (origin?: string, created = 1_000): MessageWithParts => ({
  info: { id: "msg_1", sessionID: "ses_1", role: "user", time: { created }, agent: "build", model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" } },
  parts: [{ id: "prt_1", sessionID: "ses_1", messageID: "msg_1", type: "compaction", auto: true, ...(origin ? { origin } : {}) }],
});

function actions(over: Partial<MessageActions> = {}): MessageActions {
  const noop = () => undefined;
  return {
    busy: false,
    newest: { get: () => undefined, set: noop, subscribe: () => noop },
    fork: noop,
    revert: noop,
    edit: noop,
    branch: () => undefined,
    switchBranch: noop,
    regenerate: noop,
    continueAnswer: noop,
    turnsAfter: () => 0,
    compacted: () => 12,
    editSummary: noop,
    pinMessage: noop,
    summariseUpTo: noop,
    startFresh: noop,
    ...over,
  };
}

const render = (message: MessageWithParts, a = actions(), kind: SystemEventKind = "compaction") =>
  renderToStaticMarkup(
    <MessageActionsContext.Provider value={a}>
      <SystemEventView message={message} kind={kind} />
    </MessageActionsContext.Provider>,
  );

describe("the compaction divider", () => {
  it("tabcode's own: compacted automatically, its check, and undo", () => {
    const html = render(request());
    expect(html).toContain("Compacted automatically: 12 messages → summary");
    expect(html).toContain("pins checked on the next request");
    expect(html).toContain('aria-label="Undo this compaction"');
  });

  it("one an imported history brought says whose it was and offers no undo", () => {
    for (const [origin, name] of [
      ["claude-code", "Claude Code"],
      ["codex", "Codex"],
    ]) {
      const html = render(request(origin));
      expect(html).toContain(`Compacted in ${name}: 12 messages → summary`);
      expect(html).toContain(`${name} summarised the conversation before it was imported`);
      expect(html).not.toContain("Undo this compaction");
      expect(html).not.toContain("pins checked");
    }
  });

  it("sessions imported before the origin was recorded: the source's own compactions are recognised by time", () => {
    const importedFrom = { tool: "claude-code", updated: 5_000 };
    expect(render(request(undefined, 4_000), actions({ importedFrom }))).toContain("Compacted in Claude Code");
    // A summary tabcode made after the import is its own.
    expect(render(request(undefined, 9_000), actions({ importedFrom }))).toContain("Compacted automatically");
    expect(compactionOrigin({}, 9_000, importedFrom)).toBeUndefined();
  });

  it("words: an unknown tool id is named as it is; one folded message is singular", () => {
    expect(compactionWords({ auto: false, count: 1, origin: "someagent" }).text).toBe("Compacted in someagent: 1 message → summary");
    expect(compactionWords({ auto: false }).text).toBe("Compacted → summary");
  });
});

describe("other dividers of an imported session", () => {
  const injected = (created: number): MessageWithParts => ({
    info: { id: "msg_2", sessionID: "ses_1", role: "user", time: { created }, agent: "build", model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" } },
    parts: [{ id: "prt_2", sessionID: "ses_1", messageID: "msg_2", type: "text", text: "<system-reminder>context</system-reminder>", synthetic: true }],
  });
  const importedFrom = { tool: "claude-code", updated: 5_000 };

  it("context the other agent added is said to be its, not tabcode's", () => {
    expect(render(injected(4_000), actions({ importedFrom }), "synthetic")).toContain("Claude Code added context for the model");
    expect(render(injected(4_000), actions({ importedFrom }), "continue")).toContain("Claude Code asked the model to carry on after the summary");
  });

  it("what tabcode added after the import, or in a session of its own, is tabcode's", () => {
    expect(render(injected(9_000), actions({ importedFrom }), "synthetic")).toContain("tabcode added context for the model");
    expect(render(injected(4_000), actions(), "synthetic")).toContain("tabcode added context for the model");
  });
});
