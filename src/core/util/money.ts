/**
 * An amount in US dollars as people read it, the same everywhere (the header, a step's line, exports, goals):
 * cents for amounts from $0.10 up, and below that two significant digits, so $0.0099 and $0.012 read with the
 * same precision (a fixed four decimals below a cent and two above showed $0.0099, then $0.01 for $0.0149).
 */
export function formatUSD(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return "$0.00";
  if (usd < 0.000001) return "<$0.000001";
  // Rounded to two significant digits first, so $0.0999 reads $0.10 and not $0.100.
  const rounded = usd < 0.1 ? Number(usd.toPrecision(2)) : usd;
  const decimals = Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(rounded))));
  // A zero past the cents adds nothing: $0.03, not $0.030.
  return `$${rounded.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
