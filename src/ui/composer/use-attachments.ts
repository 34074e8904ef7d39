import { useState } from "react";
import { useServices } from "../hooks/services";
import { type Attached, type Attachment, imageFrom, MAX_ATTACHMENTS, workspaceFileFrom } from "./attachments";

/** The files waiting to go with the next prompt; every refusal is told in words (`onError`), nothing typed is lost. */
export function useAttachments(sessionID: string, onError: (m: string) => void, announce: (m: string) => void) {
  const { sandbox } = useServices();
  const [items, setItems] = useState<Attachment[]>([]);

  const take = (results: Attached[]) => {
    const ok: Attachment[] = [];
    for (const r of results) {
      if (!r.ok) onError(r.error);
      else ok.push(r.value);
    }
    if (ok.length === 0) return;
    setItems((cur) => {
      const fresh = ok.filter((a) => !a.path || !cur.some((c) => c.path === a.path));
      const room = Math.max(0, MAX_ATTACHMENTS - cur.length);
      if (fresh.length > room) onError(`A message can carry ${MAX_ATTACHMENTS} attachments; ${fresh.length - room} were not attached.`);
      return [...cur, ...fresh.slice(0, room)];
    });
    announce(`Attached ${ok.map((a) => a.path ?? a.filename).join(", ")}`);
  };

  /** Pasted or dropped files: images only. */
  const addFiles = async (files: File[]) => {
    const results = await Promise.all(
      files.map(async (f): Promise<Attached> => {
        const name = f.name || "pasted image";
        return imageFrom(new Uint8Array(await f.arrayBuffer()), name);
      }),
    );
    take(results);
  };

  /** A workspace file picked from the @ list. */
  const addWorkspace = async (path: string) => {
    try {
      const sb = await sandbox.sandboxFor(sessionID);
      take([workspaceFileFrom(await sb.fs.readFile(`${sb.root}/${path}`), path, sb.root)]);
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
