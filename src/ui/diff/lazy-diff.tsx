/**
 * The diff views, loaded on demand. Kept apart from `src/ui/lazy.tsx`: the
 * message parts that show diffs are themselves reached from screens listed
 * there (Replay), and one module on both sides would be an import cycle.
 */
import type { ComponentProps } from "react";
import { onDemand } from "../on-demand";
import type { ChangesDialog as ChangesDialogT } from "./changes-dialog";
import type { PatchDiff as PatchDiffT } from "./patch-diff";

export const ChangesDialog = onDemand<ComponentProps<typeof ChangesDialogT>>("The changes", () => import("./changes-dialog"), "ChangesDialog");
export const PatchDiff = onDemand<ComponentProps<typeof PatchDiffT>>("The diff", () => import("./patch-diff"), "PatchDiff");
