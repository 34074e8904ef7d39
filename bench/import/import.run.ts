/**
 * `npm run bench:import [-- --mb N]`: reads a generated opencode.db through the
 * same read-only VFS and mapping the browser Worker uses, and writes into the
 * memory store. Prints time to the session list, sessions/s, parts/s, bytes
 * read and peak memory (RSS, sampled every 50 ms).
 */
import { statSync } from "node:fs";
import { it } from "vitest";
import { openReaderDb } from "../../src/adapters/import/reader-vfs";
import { sqlSource } from "../../src/adapters/import/sql-source";
import { chunkSessions } from "../../src/app/history-import";
import { detectSchema, type ImportIssue, listDbSessions, readDbSession, sourceIndex, writeHistory } from "../../src/core/import";
import { MemoryStore } from "../../src/testing/memory-store";
import { fileReader, nodeSqlite } from "../../src/testing/sqlite-node";
import { generatedDb } from "./generate";

const MB = Number(process.env.BENCH_IMPORT_MB ?? "256");

it(`imports a generated ${MB} MB opencode.db`, async () => {
  const g0 = performance.now();
  const path = await generatedDb(MB);
  const genMs = performance.now() - g0;
  const size = statSync(path).size;
  const sqlite3 = await nodeSqlite();
  let peak = process.memoryUsage().rss;
  const base = peak;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const reader = fileReader(path);
  const t0 = performance.now();
  const h = openReaderDb(sqlite3, reader);
  const db = sqlSource(h.db);
  const schema = detectSchema(db);
  if (!schema.ok) throw new Error(schema.error);
  const list = listDbSessions(db, schema.value);
  const listMs = performance.now() - t0;
  const listRead = reader.bytesRead();
  const store = new MemoryStore();
  const index = await sourceIndex(store);
  const issues: ImportIssue[] = [];
  let parts = 0;
  let mapMs = 0;
  let longest = 0;
  const t1 = performance.now();
  for (const chunk of chunkSessions(list)) {
    const c0 = performance.now();
    const sessions = chunk.flatMap((s) => readDbSession(db, s, issues, Date.now()) ?? []);
    const c1 = performance.now();
    mapMs += c1 - c0;
    longest = Math.max(longest, c1 - c0);
    for (const s of sessions) for (const m of s.messages) parts += m.parts.length;
    const w = await writeHistory(store, sessions, index);
    if (!w.ok) throw new Error(w.error);
    // The memory store keeps everything; a browser writes to IndexedDB. Drop what was written so RSS measures the reader.
    for (const s of sessions) await store.deleteSession(s.info.id);
  }
  const importMs = performance.now() - t1;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  h.close();
  reader.close();
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(`\n| opencode.db import (Node, sqlite-wasm ${sqlite3.version.libVersion}, reader VFS) | result |\n|---|---|`);
  console.log(`| database file | ${mib(size)} (${list.length.toLocaleString("en")} sessions; generated in ${(genMs / 1000).toFixed(1)} s or reused) |`);
  console.log(`| time to session list (open + schema + list with counts) | ${Math.round(listMs)} ms, ${mib(listRead)} read |`);
  console.log(`| read + map + write, all sessions | ${(importMs / 1000).toFixed(1)} s |`);
  console.log(`| rate | ${Math.round(list.length / (importMs / 1000)).toLocaleString("en")} sessions/s, ${Math.round(parts / (importMs / 1000)).toLocaleString("en")} parts/s (${parts.toLocaleString("en")} parts) |`);
  console.log(`| read + map only | ${(mapMs / 1000).toFixed(1)} s; longest chunk ${Math.round(longest)} ms |`);
  console.log(`| bytes read through the VFS | ${mib(reader.bytesRead())} |`);
  console.log(`| peak RSS | ${mib(peak)} (${mib(peak - base)} above start) |`);
  console.log(`| records skipped | ${issues.length} |`);
}, 1_800_000);
