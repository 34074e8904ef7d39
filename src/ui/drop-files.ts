/** Files from a drop or a picker, folders walked, each with its path inside what was dropped. */
import type { DroppedFile } from "../app/history-import";

const MAX_FILES = 200_000;

/** From an <input type=file> (with or without `webkitdirectory`). */
export function pickedFiles(list: FileList | null): DroppedFile[] {
  return [...(list ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, out: DroppedFile[]): Promise<void> {
  if (out.length >= MAX_FILES) return;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path: entry.fullPath.replace(/^\//, ""), file });
  } else if (entry.isDirectory) {
    for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, out);
  }
}

/** Whether a drag carries a folder or a history file (so the history import takes it, not the export import). */
export function isHistoryDrop(dt: DataTransfer): boolean {
  for (const item of [...dt.items]) {
    const entry = item.webkitGetAsEntry?.();
    if (entry?.isDirectory) return true;
  }
  return [...dt.files].some((f) => !/\.(json|zip)$/i.test(f.name));
}

/** Every file of a drop; dropped folders are walked (entries must be taken before the first await). */
export async function droppedFiles(dt: DataTransfer): Promise<DroppedFile[]> {
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => e !== null && e !== undefined);
  if (entries.length === 0) return pickedFiles(dt.files);
  const out: DroppedFile[] = [];
  for (const e of entries) await walk(e, out);
  return out;
}
