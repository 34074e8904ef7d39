import { useState } from "react";
import { useServices } from "../hooks/services";
import type { Attached, Attachment } from "./attachments";

/** Reading and sniffing files loads with the first attachment (its own chunk). */
const lib = () => import("./attachments");

/** The files waiting to go with the next prompt; every refusal is told in words (`onError`), nothing typed is lost. */
export function useAttachments(sessionID: string, onError: (m: string) => void, announce: (m: string) => void) {
  const { sandbox } = useServices();
  const [items, setItems] = useState<Attachment[]>([]);

  const take = (results: Attached[], max: number) => {
    const ok: Attachment[] = [];
    for (const r of results) {
      if (!r.ok) onError(r.error);
      else ok.push(r.value);
    }
    if (ok.length === 0) return;
    setItems((cur) => {
      const fresh = ok.filter((a) => !a.path || !cur.some((c) => c.path === a.path));
      const room = Math.max(0, max - cur.length);
      if (fresh.length > room) onError(`A message can carry ${max} attachments; ${fresh.length - room} were not attached.`);
      return [...cur, ...fresh.slice(0, room)];
    });
    announce(`Attached ${ok.map((a) => a.path ?? a.filename).join(", ")}`);
  };

  /** Pasted or dropped files: images only. */
  const addFiles = async (files: File[]) => {
    if (files.length === 0) return;
    try {
      const { imageFrom, MAX_ATTACHMENTS } = await lib();
      const results = await Promise.all(files.map(async (f): Promise<Attached> => imageFrom(new Uint8Array(await f.arrayBuffer()), f.name || "pasted image")));
      take(results, MAX_ATTACHMENTS);
    } catch (e) {
      onError(`Could not attach: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  /** A workspace file picked from the @ list. */
  const addWorkspace = async (path: string) => {
    try {
      const [{ workspaceFileFrom, MAX_ATTACHMENTS }, sb] = await Promise.all([lib(), sandbox.sandboxFor(sessionID)]);
      take([workspaceFileFrom(await sb.fs.readFile(`${sb.root}/${path}`), path, sb.root)], MAX_ATTACHMENTS);
    } catch (e) {
      onError(`Could not read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const remove = (key: string) => {
    const gone = items.find((a) => a.key === key);
    setItems((cur) => cur.filter((a) => a.key !== key));
    if (gone) announce(`Removed ${gone.path ?? gone.filename}`);
  };

  return {
    items,
    addFiles,
    addWorkspace,
    remove,
    clear: () => setItems([]),
    restore: setItems,
  };
}
