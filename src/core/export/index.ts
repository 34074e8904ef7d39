/** Session lifecycle data: export (JSON, zip, markdown, HTML), import, share links. */
export { sessionHtml, type HtmlOptions } from "./html";
export { importBundle, type ImportResult, parseImport, parseImportBytes, parseImportValue } from "./import";
export { type ExportOptions, exportAll, exportAllZip, exportFileName, exportSession, serializeExport, ZIP_FILE_NAME } from "./json";
export { type MarkdownOptions, sessionMarkdown } from "./markdown";
export {
  decodeProtectedShare,
  decodeShare,
  encodeShare,
  isProtectedShare,
  MAX_SHARE_LINK,
  protectedShareLink,
  SHARE_ROUTE,
  type ShareLinkResult,
  shareLink,
  stripForShare,
} from "./share";
export { type Finding, findSecrets, redactFile } from "./redact";
export { sessionTotals } from "./totals";
export * from "./types";
