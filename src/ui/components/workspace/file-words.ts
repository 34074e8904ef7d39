/** What the Files panel says about a new, moved or deleted file or folder. */
import type { DeleteScope } from "../../../core/snapshot/user-files";

const files = (n: number) => (n === 1 ? "1 file" : `${n.toLocaleString("en")} files`);

function size(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The delete dialog's title and question: the file with its size, or the folder and how many files go with it. */
export function deleteQuestion(rel: string, scope: DeleteScope): { title: string; body: string } {
  const end = "There is no undo in Files; download the zip first if you may need it again.";
  if (scope.type === "file") return { title: `Delete ${rel}?`, body: `${rel} (${size(scope.size)}) will be deleted from the workspace. ${end}` };
  const title = `Delete the folder ${rel}/?`;
  if (scope.files === 0) return { title, body: `The folder ${rel}/ is empty; it will be deleted from the workspace.` };
  const count = scope.complete ? `the ${files(scope.files)}` : `more than ${files(scope.files)}`;
  const hidden = scope.hidden > 0 ? ` (${scope.hidden === scope.files ? (scope.files === 1 ? "it is" : "all are") : `${scope.hidden.toLocaleString("en")} of them`} in folders Files does not show, such as .git or node_modules)` : "";
  return { title, body: `The folder ${rel}/ and ${count} in it${hidden} will be deleted from the workspace. ${end}` };
}

/** "Renamed a.ts to b.ts." within a folder, "Moved a.ts to src/a.ts." across folders. */
export function movedNote(from: string, to: string, folder: boolean): string {
  const parent = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf("/")));
  const slash = folder ? "/" : "";
  return `${parent(from) === parent(to) ? "Renamed" : "Moved"} ${from}${slash} to ${to}${slash}.`;
}
