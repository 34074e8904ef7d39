import { useMemo } from "react";
import { diffFromPatch } from "./diff-rows";
import { DiffView } from "./diff-view";

/** An edit/write tool's unified patch (`metadata.diff`) as a real diff. */
export function PatchDiff({ patch, name }: { patch: string; name: string }) {
  const rows = useMemo(() => diffFromPatch(patch), [patch]);
  return <DiffView diff={rows} name={name} />;
}
