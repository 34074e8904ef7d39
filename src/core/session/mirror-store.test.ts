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
});
