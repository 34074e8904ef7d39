import { useId } from "react";
import type { Session } from "../../core/schema";
import { useLayout } from "../hooks/layout";
import { COMPACT_HEADER, useMedia } from "../hooks/use-media";
import { ExportMenu, useExportItems } from "./export-menu";
import { PanelToggle } from "./layout/side-panel";
import { MenuButton } from "./menu-button";
import { FILES_PANEL } from "../hooks/layout";

interface Props {
  session: Session;
  /** Why Compact now cannot run now (shown as its title), or undefined when it can. */
  compactBlocked: string | undefined;
  onCompact: () => void;
  onShare: () => void;
  onDialog: (d: "debug" | "permissions" | "xray") => void;
  onError: (m: string) => void;
}

const COMPACT_TITLE = "Summarise the conversation so far (even when auto-compaction is off)";

/** The session's actions: all on one row on wide screens; Share plus a "More" menu below 1200 px. */
export function HeaderActions({ session, compactBlocked, onCompact, onShare, onDialog, onError }: Props) {
  const compact = useMedia(COMPACT_HEADER);
  const layout = useLayout();
  const reasonId = useId();
  const { items: exportItems, review: exportReview } = useExportItems(session.id, onError, "Export ");
  const filesToggle = (
    <PanelToggle label="Files and todos" controls={FILES_PANEL.id} panel={layout.files} narrow={layout.narrow}>
      ▤ <span className="toggle-text">Files</span>
    </PanelToggle>
  );
  if (compact)
    return (
      <div className="header-actions">
        <button type="button" onClick={onShare}>
          Share
        </button>
        <MenuButton
          label="More actions"
          items={[
            {
              label: "Replay",
              run: () => {
                window.location.hash = `#/s/${session.id}/replay`;
              },
            },
            { label: "Context X-ray", run: () => onDialog("xray") },
            { label: "Compact now", run: onCompact, disabled: compactBlocked !== undefined, reason: compactBlocked, title: COMPACT_TITLE },
            { label: "Permissions", run: () => onDialog("permissions") },
            { label: "Debug", run: () => onDialog("debug") },
            ...exportItems,
          ]}
        >
          More ▾
        </MenuButton>
        {filesToggle}
        {exportReview}
      </div>
    );
  return (
    <div className="header-actions">
      <ExportMenu sessionID={session.id} onError={onError} />
      <button type="button" onClick={onShare}>
        Share
      </button>
      <a className="button-like replay-link" href={`#/s/${session.id}/replay`}>
        Replay
      </a>
      <button type="button" onClick={() => onDialog("xray")}>
        Context X-ray
      </button>
      {/* aria-disabled, not disabled: the keyboard still reaches it, and its description says why it cannot run. */}
      <button
        type="button"
        className={compactBlocked !== undefined ? "looks-disabled" : undefined}
        aria-disabled={compactBlocked !== undefined || undefined}
        aria-describedby={compactBlocked !== undefined ? reasonId : undefined}
        onClick={() => compactBlocked === undefined && onCompact()}
        title={compactBlocked ?? COMPACT_TITLE}
      >
        Compact now
      </button>
      {compactBlocked !== undefined && (
        <span id={reasonId} hidden>
          {compactBlocked}
        </span>
      )}
      <button type="button" onClick={() => onDialog("permissions")}>
        Permissions
      </button>
      <button type="button" onClick={() => onDialog("debug")}>
        Debug
      </button>
      {filesToggle}
    </div>
  );
}
