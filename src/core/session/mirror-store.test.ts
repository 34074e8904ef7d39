import { describe, expect, it, vi } from "vitest";
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

  it("starts from the store's shared rows without copying them, and never changes them: a row or part is copied when first changed", async () => {
    const { inner, h } = await seeded();
    const id = h.sessionID;
    // The screen's rows: frozen, so any change made to them throws.
    const deepFreeze = <T>(v: T): T => {
      if (v && typeof v === "object" && !Object.isFrozen(v)) {
        for (const x of Object.values(v)) deepFreeze(x);
        Object.freeze(v);
      }
      return v;
    };
    const screen = deepFreeze(await inner.messages(id));
    let copies = 0;
    const sharing = Object.assign(Object.create(inner) as MemoryStore, {
      sharedMessages: async () => screen,
      messages: async (sid: string) => {
        copies++;
        return inner.messages(sid);
      },
    });
    const mirror = new MirrorStore(sharing);
    mirror.hold(id);
    const first = await mirror.messages(id);
    expect(copies).toBe(0);
    // Shared objects, not copies.
    expect(first[0]?.parts[0]).toBe(screen[0]?.parts[0]);

    const answer = first.find((m) => m.info.role === "assistant");
    const textPart = answer?.parts.find((p) => p.type === "text");
    if (!answer || !textPart || textPart.type !== "text") throw new Error("fixture");
    mirror.appendDelta({ sessionID: id, messageID: answer.info.id, partID: textPart.id, field: "text", delta: " and more" });
    await mirror.saveCounts([{ ...textPart, tokenCount: { encoding: "o200k_base", count: 1, size: 1 } }]);
    await mirror.upsertMessage({ ...answer.info, time: { ...answer.info.time, completed: 99 } } as typeof answer.info);
    const added = { id: ascendingId("prt"), sessionID: id, messageID: answer.info.id, type: "text" as const, text: "new" };
    await mirror.upsertPart(added);

    const now = await mirror.messages(id);
    const row = now.find((m) => m.info.id === answer.info.id);
    expect(row?.parts.find((p) => p.id === textPart.id)).toMatchObject({ text: `${textPart.text} and more` });
    expect(row?.info.time).toMatchObject({ completed: 99 });
    expect(row?.parts.map((p) => p.id)).toContain(added.id);
    // The screen's rows are as they were (frozen: a change would have thrown above).
    expect(screen.find((m) => m.info.id === answer.info.id)?.parts).toHaveLength(answer.parts.length);
    expect(copies).toBe(0);
  });

  it("a read that began before a refresh, or before a write, is read again (it may predate them)", async () => {
    const { inner, h } = await seeded();
    const id = h.sessionID;
    // Every read of storage waits for its own release, in the order they were made.
    const gates: (() => void)[] = [];
    const slow = Object.assign(Object.create(inner) as MemoryStore, {
      messages: async (sid: string) => {
        const rows = await inner.messages(sid);
        await new Promise<void>((r) => gates.push(r));
        return rows;
      },
    });
    const release = async (n: number) => {
      await vi.waitFor(() => expect(gates.length).toBeGreaterThan(n));
      gates[n]?.();
    };
    const mirror = new MirrorStore(slow);
    mirror.hold(id);
    const early = mirror.messages(id); // e.g. the header sizing the next request
    await vi.waitFor(() => expect(gates).toHaveLength(1));
    // Meanwhile another tab queues a prompt, and the loop refreshes to look for it.
    const queued = ascendingId("msg");
    await inner.upsertPart({ id: ascendingId("prt"), sessionID: id, messageID: queued, type: "text", text: "queued elsewhere" });
    await inner.upsertMessage({ id: queued, sessionID: id, role: "user", time: { created: 3 }, agent: "build", model: { providerID: "p", modelID: "m" } });
    mirror.refresh(id);
    const after = mirror.messages(id);
    // The read from before the refresh ends first: it must not become the copy.
    await release(0);
    await release(1);
    await release(2);
    expect((await after).map((m) => m.info.id)).toContain(queued);
    expect((await early).map((m) => m.info.id)).toContain(queued);

    // A write through the mirror while no copy is loaded: the read under way is read again and has it.
    mirror.refresh(id);
    gates.length = 0;
    const reading = mirror.messages(id);
    await vi.waitFor(() => expect(gates).toHaveLength(1));
    const mine = ascendingId("msg");
    await mirror.addMessage({ id: mine, sessionID: id, role: "user", time: { created: 4 }, agent: "build", model: { providerID: "p", modelID: "m" } }, [
      { id: ascendingId("prt"), sessionID: id, messageID: mine, type: "text", text: "mine" },
    ]);
    await release(0);
    await release(1);
    expect((await reading).map((m) => m.info.id)).toContain(mine);
    expect(await mirror.messages(id)).toEqual(await inner.messages(id));
  });
});
