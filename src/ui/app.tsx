import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore, useRef } from "react";
import { dismissGlance } from "./glance/dismiss";
import type { DroppedFile } from "../app/history-import";
import { LAUNCH_PARAM } from "../app/isolation";
import { errorMessage } from "../core/errors";
import { type DemoKind, exportEverything, importFile, historyPath, secretsInAll, startDemo } from "../app/session-actions";
import type { Finding } from "../core/export";
import type { LaunchQueueLike } from "../app/shared-files";
import { download } from "./components/workspace/workspace-io";
import { useServices, useSettings } from "./hooks/services";
import { useOnline } from "./hooks/use-online";
import { useRoute } from "./hooks/use-route";
import { PermissionDialog } from "./components/permission-dialog";
import { SessionView } from "./components/session-view";
import { Sidebar } from "./components/sidebar";
import { BrandLink } from "./components/brand-link";
import { Samples } from "./components/samples";
import { Welcome } from "./components/welcome";
import { PanelToggle, SidePanel } from "./components/layout/side-panel";
import { Toasts, useNotices } from "./components/toasts";
import { FILES_PANEL, LayoutContext, SESSIONS_PANEL } from "./hooks/layout";
import { NARROW, useMedia } from "./hooks/use-media";
import { usePanel } from "./hooks/use-panel";
import { useAppShortcuts } from "./hooks/use-app-shortcuts";
import { useAppEvent } from "./app-events";
import { ShortcutsDialog } from "./components/shortcuts-dialog";
import { resetTour } from "./components/tour-state";
import { ExportReviewDialog, PinnedPanel, ReplayRoute, SettingsDialog, SharedView } from "./lazy";
import { droppedFiles, isHistoryDrop } from "./drop-files";
import { useRunAttention } from "./notifications/use-run-attention";
import { firstScreenShown, whenIdle } from "../app/warm-up";

const ImportHistoryDialog = lazy(() => import("./components/import-history-dialog").then((m) => ({ default: m.ImportHistoryDialog })));

/** The app shell: session list, the current session (from the URL), dialogs and notices. */
export function App() {
  const services = useServices();
  const { sessions, bus, store } = services;

  const settings = useSettings();
  const [route, navigate] = useRoute();
  const online = useOnline();
  const localModel = settings.provider === "demo" || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(settings.baseURL);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { notices, notify, dismiss } = useNotices();
  const narrow = useMedia(NARROW);
  const sessionsPanel = usePanel("tabcode.panel.sessions", SESSIONS_PANEL.width, SESSIONS_PANEL.min, SESSIONS_PANEL.max);
  const filesPanel = usePanel("tabcode.panel.files", FILES_PANEL.width, FILES_PANEL.min, FILES_PANEL.max);
  const layout = useMemo(() => ({ narrow, sessions: sessionsPanel, files: filesPanel }), [narrow, sessionsPanel, filesPanel]);
  const corrupt = useSyncExternalStore(
    (l) => store.subscribeCorrupt(l),
    () => store.corrupt(),
  );

  // Start-up work waits for the first screen: a session says so once its messages are on screen, any other page at once.
  const opensSession = useRef(route.name === "session" && !route.replay).current;
  useLayoutEffect(() => {
    if (!opensSession) dismissGlance(document);
  }, [opensSession]);
  useEffect(() => {
    if (!opensSession) firstScreenShown();
    // What every session view shows beside its messages, so opening one later does not wait for it.
    whenIdle(() => void PinnedPanel.preload().catch(() => undefined));
  }, [opensSession]);

  const resetOnLoad = services.settings.resetOnLoad;
  useEffect(() => {
    if (resetOnLoad.length)
      notify(
        `Some saved settings were invalid and were reset to their defaults: ${resetOnLoad.join(", ")}. Everything else was kept. Check them in Settings.`,
        "info",
      );
  }, [resetOnLoad, notify]);

  useEffect(
    () =>
      bus.subscribe((ev) => {
        // Storage full while an answer streamed: the banner above that conversation says so and offers the
        // download; a toast saying it again would cover the banner's button.
        if (ev.type === "session.error" && ev.error.name === "UnknownError" && !store.unsavedAnswers().some((a) => a.sessionID === ev.sessionID))
          notify(errorMessage(ev.error));
        if (ev.type === "session.notice") notify(ev.message, "info");
      }),
    [bus, notify, store],
  );

  const [dropping, setDropping] = useState(false);
  const [history, setHistory] = useState<{ files?: DroppedFile[] } | null>(null);
  useEffect(() => {
    // Installed app opened with a file (the manifest's file handler) or by a share (its share target); the code loads only then.
    const queue = (window as { launchQueue?: LaunchQueueLike }).launchQueue;
    const shared = new URLSearchParams(location.search).has("shared");
    if (!queue && !shared) return;
    void import("../app/shared-files").then(async ({ consumeLaunchFiles, takeSharedFiles }) => {
      consumeLaunchFiles(
        queue,
        (files) => setHistory({ files }),
        (m) => notify(m),
      );
      // A launch with files kept this page where it was (isolation.ts); once they are taken, a reload may move it.
      const query = new URLSearchParams(location.search);
      if (query.has(LAUNCH_PARAM)) {
        query.delete(LAUNCH_PARAM);
        window.history.replaceState(null, "", `${location.pathname}${query.size > 0 ? `?${query}` : ""}${location.hash}`);
      }
      if (!shared) return;
      try {
        const got = await takeSharedFiles(location.search, new URL(import.meta.env.BASE_URL, location.origin).href, "caches" in window ? caches : undefined);
        window.history.replaceState(null, "", `${location.pathname}${location.hash}`);
        if (got?.ok) setHistory({ files: got.files });
        else if (got) notify(got.error);
      } catch (e) {
        notify(`The shared files could not be read: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
  }, [notify]);

  const importFiles = useCallback(
    async (files: File[]) => {
      const history: { path: string; file: File }[] = [];
      for (const f of files) {
        // Another agent's transcript or chat (or an OpenCode 2.x `session export`) is history, not an export of ours.
        const path = await historyPath(f);
        if (path !== undefined) {
          history.push({ path, file: f });
          continue;
        }
        const r = await importFile(services, new Uint8Array(await f.arrayBuffer()));
        if (!r.ok) {
          notify(`Could not import ${f.name}: ${r.error}`);
          continue;
        }
        const { sessionIDs, copied, warnings } = r.value;
        notify(
          `Imported ${sessionIDs.length} session${sessionIDs.length === 1 ? "" : "s"} from ${f.name}${copied ? ` (${copied} as a copy: the original is already here)` : ""}.${warnings.length ? ` Notes: ${warnings.slice(0, 3).join(" ")}` : ""}`,
          "info",
        );
        const first = sessionIDs[0];
        if (first) navigate({ name: "session", sessionID: first });
      }
      if (history.length) setHistory({ files: history });
    },
    [services, notify, navigate],
  );
  // Export all reviews the secrets found in every session first, as a single session's export does.
  const [exportReview, setExportReview] = useState<Finding[] | null>(null);
  const writeAll = async (remove: readonly Finding[]) => {
    try {
      const d = await exportEverything(services, remove);
      download(d.name, d.data, d.mime);
    } catch (e) {
      notify(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const exportAllSessions = async () => {
    try {
      const findings = await secretsInAll(services);
      if (findings.length === 0) await writeAll([]);
      else setExportReview(findings);
    } catch (e) {
      notify(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const demo = async (kind?: DemoKind) => {
    try {
      const s = await startDemo(services, kind);
      navigate({ name: "session", sessionID: s.id });
    } catch (e) {
      notify(`Could not start the demo: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const openSession = useCallback((id: string) => navigate({ name: "session", sessionID: id }), [navigate]);
  const closeDrawer = () => {
    if (narrow) sessionsPanel.setOpen(false);
  };

  const newSession = async () => {
    try {
      const s = await sessions.createSession();
      navigate({ name: "session", sessionID: s.id });
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e));
    }
  };

  const current = route.name === "session" ? route.sessionID : undefined;
  const [helpOpen, setHelpOpen] = useState(false);
  useAppShortcuts(
    layout,
    current,
    openSession,
    () => void newSession(),
    () => setHelpOpen(true),
  );
  useRunAttention(current, openSession);
  useAppEvent("help", () => setHelpOpen(true));
  useAppEvent("open-settings", () => setSettingsOpen(true));
  useAppEvent("new-session", () => void newSession());
  // The tour lives in demo sessions: restarting it from elsewhere opens a new demo.
  useAppEvent("tour-restart", () => {
    resetTour();
    const open = current ? store.getSession(current) : Promise.resolve(undefined);
    open.then(
      (s) => (s?.demo ? undefined : demo()),
      () => undefined,
    );
  });
  return (
    <LayoutContext.Provider value={layout}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping export files anywhere imports them; the Import button is the accessible path */}
      <div
        className={`app${narrow ? " narrow" : ""}`}
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes("Files")) {
            e.preventDefault();
            setDropping(true);
          }
        }}
        onDragLeave={(e) => {
          if (e.relatedTarget === null) setDropping(false);
        }}
        onDrop={(e) => {
          e.preventDefault();
          setDropping(false);
          if (isHistoryDrop(e.dataTransfer)) void droppedFiles(e.dataTransfer).then((files) => setHistory({ files }));
          else void importFiles([...e.dataTransfer.files]);
        }}
      >
        {dropping && <div className="drop-overlay">Drop an export, an opencode.db, or a history folder to import it</div>}
        <SidePanel side="left" label="Sessions" id={SESSIONS_PANEL.id} panel={sessionsPanel} narrow={narrow} min={SESSIONS_PANEL.min} max={SESSIONS_PANEL.max}>
          <Sidebar
            currentID={current}
            onSelect={(id, messageID) => {
              closeDrawer();
              navigate({ name: "session", sessionID: id, messageID });
            }}
            onNew={() => {
              closeDrawer();
              void newSession();
            }}
            onDeleted={(id) => {
              if (id === current) navigate({ name: "home" }, true);
            }}
            onError={notify}
            onNotify={notify}
            onImport={(files) => void importFiles(files)}
            onImportHistory={() => setHistory({})}
            onExportAll={() => void exportAllSessions()}
            onSettings={() => setSettingsOpen(true)}
            demo={settings.provider === "demo"}
          />
        </SidePanel>
        <main className="main">
          {(narrow || sessionsPanel.collapsed) && (
            <div className="main-bar">
              <PanelToggle label="Sessions" controls={SESSIONS_PANEL.id} panel={sessionsPanel} narrow={narrow}>
                ☰ <span className="toggle-text">Sessions</span>
              </PanelToggle>
              <BrandLink small />
            </div>
          )}
          {!online && (
            <div className="banner warn" role="status">
              You are offline. Your sessions, their files and exports still work
              {localModel ? ", and so does your model (it runs locally)" : "; the model cannot be reached until you are back online"}.
            </div>
          )}
          {corrupt.length > 0 && (
            <div className="banner warn" role="alert">
              {corrupt.length} stored record{corrupt.length === 1 ? " is" : "s are"} damaged and {corrupt.length === 1 ? "was" : "were"} skipped; everything
              else works. Details are in the browser console.
            </div>
          )}
          {route.name === "share" ? (
            <SharedView
              data={route.data}
              replay={route.replay === true}
              onReplay={(replay) => navigate({ name: "share", data: route.data, replay })}
              onSaved={(id) => navigate({ name: "session", sessionID: id }, true)}
            />
          ) : route.name === "session" && route.replay ? (
            <ReplayRoute sessionID={route.sessionID} onExit={() => navigate({ name: "session", sessionID: route.sessionID })} />
          ) : current ? (
            <SessionView
              key={current}
              sessionID={current}
              focusMessageID={route.name === "session" ? route.messageID : undefined}
              onError={notify}
              onOpenSession={openSession}
            />
          ) : (
            <Welcome
              onNew={() => void newSession()}
              onSettings={() => setSettingsOpen(true)}
              onDemo={() => void demo()}
              onPythonDemo={() => void demo("python")}
              samples={<Samples onOpen={openSession} onError={notify} />}
            />
          )}
        </main>
        <Toasts notices={notices} onDismiss={dismiss} />
        {settingsOpen && <SettingsDialog onClose={() => setSettingsOpen(false)} />}
        {history && (
          <Suspense fallback={null}>
            <ImportHistoryDialog
              {...(history.files ? { initial: history.files } : {})}
              onClose={() => setHistory(null)}
              onOpen={(id) => {
                setHistory(null);
                navigate({ name: "session", sessionID: id });
              }}
            />
          </Suspense>
        )}
        {exportReview && (
          <ExportReviewDialog
            label="all sessions"
            target="every session's file in the archive"
            findings={exportReview}
            onClose={() => setExportReview(null)}
            onExport={(remove) => {
              setExportReview(null);
              void writeAll(remove);
            }}
          />
        )}
        {helpOpen && <ShortcutsDialog onClose={() => setHelpOpen(false)} />}
        <PermissionDialog />
      </div>
    </LayoutContext.Provider>
  );
}
