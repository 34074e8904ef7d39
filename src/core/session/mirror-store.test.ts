import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../testing/memory-store";
import { History, makeSession, text, tool } from "../compaction/test-fixtures";
import { ascendingId } from "../ids";
import { MirrorStore } from "./mirror-store";

async function seeded() {
  const inner = new MemoryStore();
  const h = new History();
  h.turn("one", [text("answer"), tool("ls", {}, "a\nb")]);
  await inner.importSession(makeSession(h.sessionID), h.msgs);
  return { inner, h, mirror: new MirrorStore(inner) };
}

describe("MirrorStore", () => {
  it("while held, answers from memory with its own writes applied — the same as storage says", async () => {
    const { inner, h, mirror } = await seeded();
    const id = h.sessionID;
    mirror.hold(id);
    const reads = () => mirror.messages(id);
    expect(await reads()).toEqual(await inner.messages(id));

    // A prompt writes its text before its message.
    const userID = ascendingId("msg");
    const textID = ascendingId("prt");
    await mirror.upsertPart({ id: textID, sessionID: id, messageID: userID, type: "text", text: "two" });
    await mirror.upsertMessage({ id: userID, sessionID: id, role: "user", time: { created: 2 }, agent: "build", model: { providerID: "p", modelID: "m" } });
    const partID = ascendingId("prt");
    await mirror.upsertPart({ id: partID, sessionID: id, messageID: userID, type: "text", text: "" });
    mirror.appendDelta({ sessionID: id, messageID: userID, partID, field: "text", delta: "streamed" });
    await mirror.deleteMessages(id, [h.msgs[0]?.info.id ?? ""]);
    expect(await reads()).toEqual(await inner.messages(id));

    // Someone else writes to storage: unseen until refreshed.
    await inner.upsertPart({ id: ascendingId("prt"), sessionID: id, messageID: userID, type: "text", text: "from another tab" });
    expect((await reads()).at(-1)?.parts).toHaveLength(2);
    mirror.refresh(id);
    expect(await reads()).toEqual(await inner.messages(id));

    // Released: reads go straight to storage.
    mirror.release(id);
    await inner.upsertPart({ id: ascendingId("prt"), sessionID: id, messageID: userID, type: "text", text: "later" });
    expect(await reads()).toEqual(await inner.messages(id));
  });

  it("token counts land on the held parts that were counted, never over a part written since", async () => {
    const { h, mirror } = await seeded();
    const id = h.sessionID;
    mirror.hold(id);
    const parts = (await mirror.messages(id)).flatMap((m) => m.parts).filter((p) => p.type === "text" || p.type === "tool");
    const [a, b] = parts;
    if (!a || !b) throw new Error("fixture");
    const count = { encoding: "o200k_base", count: 3, size: 1 };
    // b is rewritten after it was counted (its text grew).
    if (b.type !== "text") throw new Error("fixture");
    await mirror.upsertPart({ ...b, text: `${b.text} and more` });
    await mirror.saveCounts([
      { ...a, tokenCount: count },
      { ...b, tokenCount: count },
    ]);
    const now = (await mirror.messages(id)).flatMap((m) => m.parts);
    expect(now.find((p) => p.id === a.id)?.tokenCount).toEqual(count);
    expect(now.find((p) => p.id === b.id)?.tokenCount).toBeUndefined();
  });
});
