/** Session lifecycle data: export (JSON, zip, markdown, HTML), import, share links. */
export { sessionHtml } from "./html";
export { importBundle, parseImport, parseImportBytes } from "./import";
export { exportAllZip, exportFileName, exportSession, serializeExport, ZIP_FILE_NAME } from "./json";
export { sessionMarkdown } from "./markdown";
export { decodeShare, shareLink, stripForShare } from "./share";
export * from "./types";
