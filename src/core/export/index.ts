/** Session lifecycle data: export (JSON, zip, markdown, HTML), import, share links. */
export { sessionHtml } from "./html";
export { importBundle, isZip, parseImport, parseImportBytes } from "./import";
export { exportAll, exportAllZip, exportFileName, exportSession, serializeExport, ZIP_FILE_NAME } from "./json";
export { sessionMarkdown } from "./markdown";
export { decodeProtectedShare, decodeShare, isProtectedShare, protectedShareLink, shareLink, stripForShare } from "./share";
export { type Finding, findSecrets, findSecretsInAll, redactFile } from "./redact";
export * from "./types";
