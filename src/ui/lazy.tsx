/**
 * Screens and dialogs the first screen does not need, loaded on demand
 * (each is its own chunk, never in the entry bundle); see `on-demand.tsx`.
 */
import type { ComponentProps } from "react";
import type { DebugDialog as DebugDialogT } from "./components/debug-dialog";
import type { GoalBar as GoalBarT } from "./components/goal-bar";
import type { ExportReviewDialog as ExportReviewDialogT } from "./components/export-review-dialog";
import type { ReplayRoute as ReplayRouteT } from "./components/replay/replay-route";
import type { SessionPermissions as SessionPermissionsT } from "./components/session-permissions";
import type { SettingsDialog as SettingsDialogT } from "./components/settings-dialog";
import type { ShareDialog as ShareDialogT } from "./components/share-dialog";
import type { Tour as TourT } from "./components/tour";
import type { SharedView as SharedViewT } from "./components/shared-view";
import type { XrayDialog as XrayDialogT } from "./components/xray-dialog";
import type { PinnedPanel as PinnedPanelT } from "./components/pinned-panel";
import type { SummaryPreviewDialog as SummaryPreviewDialogT } from "./components/summary-preview-dialog";
import type { FileViewer as FileViewerT } from "./components/workspace/file-viewer";
import type { FileActionDialog as FileActionDialogT } from "./components/workspace/file-actions";
import type { TerminalPane as TerminalPaneT } from "./components/terminal/terminal-pane";
import { onDemand } from "./on-demand";

export const SettingsDialog = onDemand<ComponentProps<typeof SettingsDialogT>>("Settings", () => import("./components/settings-dialog"), "SettingsDialog");
export const ReplayRoute = onDemand<ComponentProps<typeof ReplayRouteT>>("The replay", () => import("./components/replay/replay-route"), "ReplayRoute");
export const SharedView = onDemand<ComponentProps<typeof SharedViewT>>("The shared session", () => import("./components/shared-view"), "SharedView");
export const XrayDialog = onDemand<ComponentProps<typeof XrayDialogT>>("The X-ray", () => import("./components/xray-dialog"), "XrayDialog");
export const ShareDialog = onDemand<ComponentProps<typeof ShareDialogT>>("Sharing", () => import("./components/share-dialog"), "ShareDialog");
export const DebugDialog = onDemand<ComponentProps<typeof DebugDialogT>>("The debug view", () => import("./components/debug-dialog"), "DebugDialog");
export const SessionPermissions = onDemand<ComponentProps<typeof SessionPermissionsT>>("Session permissions", () => import("./components/session-permissions"), "SessionPermissions");
export const Tour = onDemand<ComponentProps<typeof TourT>>("The tour", () => import("./components/tour"), "Tour", () => null);
export const GoalBar = onDemand<ComponentProps<typeof GoalBarT>>("The goal", () => import("./components/goal-bar"), "GoalBar");
export const ExportReviewDialog = onDemand<ComponentProps<typeof ExportReviewDialogT>>("The export review", () => import("./components/export-review-dialog"), "ExportReviewDialog");
export const PinnedPanel = onDemand<ComponentProps<typeof PinnedPanelT>>("The Pinned panel", () => import("./components/pinned-panel"), "PinnedPanel");
export const SummaryPreviewDialog = onDemand<ComponentProps<typeof SummaryPreviewDialogT>>("The summary preview", () => import("./components/summary-preview-dialog"), "SummaryPreviewDialog");
export const TerminalPane = onDemand<ComponentProps<typeof TerminalPaneT>>("The terminal", () => import("./components/terminal/terminal-pane"), "TerminalPane");
export const FileViewer = onDemand<ComponentProps<typeof FileViewerT>>("The file viewer", () => import("./components/workspace/file-viewer"), "FileViewer");
export const FileActionDialog = onDemand<ComponentProps<typeof FileActionDialogT>>("File actions", () => import("./components/workspace/file-actions"), "FileActionDialog");
