/** Seeds a session with about `parts` parts of realistic exchanges (user text; assistant step, markdown text, tool, step end) through the store seam. */
/** Returns the session id and the index of the last exchange (its texts name it: "Question N", "Answer N"). */
export async function seedSession(page: import("@playwright/test").Page, parts: number): Promise<{ id: string; last: number }> {
  return page.evaluate(async (parts) => {
    const t = (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> }; store: { importSession(s: unknown, m: unknown[]): Promise<void>; getSession(id: string): Promise<unknown> } } }).__tabcode;
    const s = await t.sessions.createSession();
    const session = await t.store.getSession(s.id);
    const msgs: unknown[] = [];
    let n = 0;
    const id = (p: string) => `${p}_${(0x100000000 + n++).toString(16).padStart(12, "0")}000abcdefghijk`;
    // Each exchange: user (1 text part) + assistant (step-start, text, tool, step-finish) = 5 parts.
    let last = 0;
    for (let i = 0; n < parts * 2; i++) {
      last = i;
      const u = id("msg");
      msgs.push({ info: { id: u, sessionID: s.id, role: "user", time: { created: i }, agent: "build", model: { providerID: "x", modelID: "y" } }, parts: [{ id: id("prt"), sessionID: s.id, messageID: u, type: "text", text: `Question ${i}: please look at file${i}.ts` }] });
      const a = id("msg");
      const tokens = { input: 100, output: 20, reasoning: 0, cache: { read: 0, write: 0 } };
      msgs.push({
        info: { id: a, sessionID: s.id, role: "assistant", parentID: u, time: { created: i, completed: i }, modelID: "y", providerID: "x", agent: "build", cost: 0, tokens, finish: "stop" },
        parts: [
          { id: id("prt"), sessionID: s.id, messageID: a, type: "step-start" },
          { id: id("prt"), sessionID: s.id, messageID: a, type: "text", text: `Answer ${i} with **markdown**, a list:\n- one\n- two\n\n\`\`\`ts\nconst x = ${i};\n\`\`\`` },
          { id: id("prt"), sessionID: s.id, messageID: a, type: "tool", callID: `c${i}`, tool: "todowrite", state: { status: "completed", input: { todos: [] }, output: "The todo list is now empty.", title: "0 todos open", metadata: {}, time: { start: 1, end: 2 } } },
          { id: id("prt"), sessionID: s.id, messageID: a, type: "step-finish", reason: "stop", cost: 0, tokens },
        ],
      });
      if (msgs.length * 2.5 >= parts) break;
    }
    await t.store.importSession(session, msgs);
    return { id: s.id, last };
  }, parts);
}
