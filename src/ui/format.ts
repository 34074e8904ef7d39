/** Display helpers: numbers, money, time. */

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** A day, the same way everywhere: "Dec 1" (with the year when it is not this year). */
// One formatter each: `toLocaleDateString(…, options)` builds a new one per call, which a list of thousands of sessions feels.
const DAY = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const DAY_YEAR = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", year: "numeric" });

export function formatDay(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const sameYear = d.getFullYear() === new Date(now).getFullYear();
  return (sameYear ? DAY : DAY_YEAR).format(d);
}

/** A moment: "Dec 1, 14:05" style (day as in formatDay, then the time). */
export function formatTime(ms: number, now = Date.now()): string {
  return `${formatDay(ms, now)}, ${new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}`;
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
