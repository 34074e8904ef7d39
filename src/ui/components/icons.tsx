/**
 * Small line icons drawn as SVG. Glyphs such as ⑂, ⧉, 📌 or 📎 are missing from common fonts (a system
 * with only DejaVu shows them as empty boxes), so marks and icon buttons draw their own. Every icon is
 * `aria-hidden`: the control or the mark around it carries the accessible name.
 */

const STROKE = { fill: "none", stroke: "currentColor", strokeWidth: 1.5, strokeLinecap: "round", strokeLinejoin: "round" } as const;

export function ArchiveIcon({ out }: { out: boolean }) {
  return (
    <svg width="15" height="15" viewBox="0 0 16 16" aria-hidden="true" {...STROKE}>
      <rect x="1.5" y="2" width="13" height="3.5" rx="1" />
      <path d="M2.5 5.5v7.5a1 1 0 0 0 1 1h9a1 1 0 0 0 1-1V5.5" />
      {out ? <path d="M8 12.5V8M6 10l2-2 2 2" /> : <path d="M6 8.5h4" />}
    </svg>
  );
}

export function PinIcon({ size = 15 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" {...STROKE}>
      <path d="M6 2h4l-.5 4 2.5 2.5H4L6.5 6z" />
      <path d="M8 8.5V14" />
    </svg>
  );
}

/** A branch splitting in two: a session forked from another. */
export function ForkIcon({ size = 12 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" {...STROKE}>
      <circle cx="4" cy="3" r="1.5" />
      <circle cx="12" cy="3" r="1.5" />
      <circle cx="8" cy="13" r="1.5" />
      <path d="M4 4.5v1.5a2 2 0 0 0 2 2h4a2 2 0 0 0 2-2V4.5M8 8v3.5" />
    </svg>
  );
}

/** Two overlapping sheets: a copy (an imported session whose original is already here). */
export function CopyIcon({ size = 12 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" {...STROKE}>
      <rect x="5.5" y="5.5" width="8.5" height="8.5" rx="1.5" />
      <path d="M10.5 5.5V3.5a1.5 1.5 0 0 0-1.5-1.5H3.5A1.5 1.5 0 0 0 2 3.5V9a1.5 1.5 0 0 0 1.5 1.5h2" />
    </svg>
  );
}

/** A paper clip: an attached file. */
export function AttachIcon({ size = 13 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" {...STROKE}>
      <path d="M13.5 7.5 8 13a3.5 3.5 0 0 1-5-5l6-6a2.3 2.3 0 0 1 3.3 3.3l-6 6a1.2 1.2 0 0 1-1.7-1.7L10 4.2" />
    </svg>
  );
}
