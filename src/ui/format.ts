/** Display helpers: numbers, money, time. */
import { formatUSD } from "../core/util/money";

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** Dollars, the one rule shared with the exports and goals (`formatUSD`). */
export const formatCost = formatUSD;

// Intl formatters are costly to create (toLocale*String makes one per call): made once, reused.
const dayFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const dayYearFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", year: "numeric" });
const clockFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

/** A day, the same way everywhere: "Dec 1" (with the year when it is not this year). */
export function formatDay(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  return (d.getFullYear() === new Date(now).getFullYear() ? dayFormat : dayYearFormat).format(d);
}

/** A moment: "Dec 1, 14:05" style (day as in formatDay, then the time). */
export function formatTime(ms: number, now = Date.now()): string {
  return `${formatDay(ms, now)}, ${clockFormat.format(ms)}`;
}

export function relativeTime(ms: number, now = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return formatDay(ms, now);
}

export type DateGroup = "Today" | "Yesterday" | "Earlier";

/** The session list's date groups, by local calendar day. */
export function dateGroup(ms: number, now = Date.now()): DateGroup {
  const day = (t: number) => {
    const d = new Date(t);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  };
  const today = day(now);
  const that = day(ms);
  if (that >= today) return "Today";
  const yesterday = day(today - 12 * 3600_000);
  return that >= yesterday ? "Yesterday" : "Earlier";
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
