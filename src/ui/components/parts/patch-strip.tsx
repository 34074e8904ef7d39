import { useState } from "react";
import type { PatchPart } from "../../../core/schema";
import { ChangesDialog } from "../../diff/lazy-diff";

/** "Changed N files": each file opens its diff; "Changes of this turn" shows every file the turn changed. */
export function PatchStrip({ part }: { part: PatchPart }) {
  const [open, setOpen] = useState<{ scope: "step" | "turn"; file?: string }>();
  const n = part.files.length;
  const shown = part.files.slice(0, 8);
  return (
    <div className="patch-part">
      <span>
        Changed {n} file{n === 1 ? "" : "s"}:
      </span>{" "}
      {shown.map((f) => (
        <button key={f} type="button" className="link patch-file" aria-label={`Show the diff of ${f}`} onClick={() => setOpen({ scope: "step", file: f })}>
          {f}
        </button>
      ))}
      {n > shown.length && (
        <button type="button" className="link" onClick={() => setOpen({ scope: "step" })}>
          {n - shown.length} more…
        </button>
      )}
      <button type="button" className="link patch-turn" onClick={() => setOpen({ scope: "turn" })}>
        Changes of this turn
      </button>
      {open && <ChangesDialog sessionID={part.sessionID} messageID={part.messageID} scope={open.scope} file={open.file} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
