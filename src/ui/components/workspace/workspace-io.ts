/** Offers bytes or text as a file download. */
export function download(name: string, data: Uint8Array | string, mime: string): void {
  const blob = new Blob([typeof data === "string" ? data : new Uint8Array(data)], { type: mime });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Safe relative path for an uploaded file: no `..`, no leading slash, no NUL. */
export function uploadPath(name: string): string | undefined {
  const parts = name.replaceAll("\\", "/").split("/").filter((p) => p && p !== ".");
  if (parts.some((p) => p === ".." || p.includes("\0"))) return undefined;
  return parts.join("/") || undefined;
}

/** Reads dropped items, folders included (webkitGetAsEntry), as [relative path, File]. */
export async function droppedFiles(items: DataTransferItemList): Promise<[string, File][]> {
  const out: [string, File][] = [];
  const readEntry = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push([`${prefix}${entry.name}`, file]);
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (batch.length === 0) break;
        for (const child of batch) await readEntry(child, `${prefix}${entry.name}/`);
      }
    }
  };
  const entries = [...items].map((i) => i.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  for (const e of entries) await readEntry(e, "");
  return out;
}
