/** How a workspace file the user attached (an @ mention) reaches the model: its path and its text. */
export function attachedFileText(path: string, content: string): string {
  return `The user attached the workspace file ${path}:\n<file path="${path}">\n${content.replace(/\n$/, "")}\n</file>`;
}
