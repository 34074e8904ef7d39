/**
 * Screens and dialogs the first screen does not need, loaded on demand
 * (each is its own chunk, never in the entry bundle). Each export has the
 * props of the component it stands for; while its chunk loads it shows a
 * status line, and a chunk that cannot be fetched (offline before the app
 * was ever cached) shows an alert instead of breaking the app.
 */
import { Component, type ComponentProps, type ComponentType, type LazyExoticComponent, type ReactNode, lazy, Suspense } from "react";
import type { DebugDialog as DebugDialogT } from "./components/debug-dialog";
import type { ReplayRoute as ReplayRouteT } from "./components/replay/replay-route";
import type { SessionPermissions as SessionPermissionsT } from "./components/session-permissions";
import type { SettingsDialog as SettingsDialogT } from "./components/settings-dialog";
import type { ShareDialog as ShareDialogT } from "./components/share-dialog";
import type { SharedView as SharedViewT } from "./components/shared-view";
import type { XrayDialog as XrayDialogT } from "./components/xray-dialog";
import type { Markdown as MarkdownT } from "./components/markdown";

class LoadBoundary extends Component<{ what: string; fallback?: ReactNode; children: ReactNode }, { failed?: string }> {
  override state: { failed?: string } = {};
  static getDerivedStateFromError(e: unknown) {
    return { failed: e instanceof Error ? e.message : String(e) };
  }
  override render() {
    if (this.state.failed && this.props.fallback) return this.props.fallback;
    if (this.state.failed)
      return (
        <div className="lazy-status" role="alert">
          {this.props.what} could not be loaded ({this.state.failed}). Check your connection and reload the page.
        </div>
      );
    return this.props.children;
  }
}

interface Loader<P extends object> {
  what: string;
  Lazy: LazyExoticComponent<ComponentType<P>>;
  loaded(): ComponentType<P> | undefined;
  fallback?: (props: P) => ReactNode;
}

function OnDemandView<P extends object>({ loader, props }: { loader: Loader<P>; props: P }) {
  const Loaded = loader.loaded();
  if (Loaded) return <Loaded {...props} />;
  const { Lazy, what, fallback } = loader;
  const waiting = fallback?.(props) ?? (
    <div className="lazy-status" role="status">
      Loading {what.toLowerCase()}…
    </div>
  );
  return (
    <LoadBoundary what={what} fallback={fallback ? waiting : undefined}>
      <Suspense fallback={waiting}>
        <Lazy {...props} />
      </Suspense>
    </LoadBoundary>
  );
}

/**
 * `name` exported by the module `load` imports, as a component that loads on
 * first render (or earlier through `preload`). Once loaded it renders
 * directly, without suspending again.
 */
function onDemand<P extends object>(what: string, load: () => Promise<Record<string, unknown>>, name: string, fallback?: (props: P) => ReactNode) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (m) => {
        loaded = m[name] as ComponentType<P>;
        return loaded;
      },
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    );
    return loading;
  };
  const loader: Loader<P> = { what, fallback, loaded: () => loaded, Lazy: lazy(async () => ({ default: await preload() })) };
  return Object.assign((props: P) => <OnDemandView loader={loader} props={props} />, { preload });
}

export const SettingsDialog = onDemand<ComponentProps<typeof SettingsDialogT>>("Settings", () => import("./components/settings-dialog"), "SettingsDialog");
export const ReplayRoute = onDemand<ComponentProps<typeof ReplayRouteT>>("The replay", () => import("./components/replay/replay-route"), "ReplayRoute");
export const SharedView = onDemand<ComponentProps<typeof SharedViewT>>("The shared session", () => import("./components/shared-view"), "SharedView");
export const XrayDialog = onDemand<ComponentProps<typeof XrayDialogT>>("The X-ray", () => import("./components/xray-dialog"), "XrayDialog");
export const ShareDialog = onDemand<ComponentProps<typeof ShareDialogT>>("Sharing", () => import("./components/share-dialog"), "ShareDialog");
export const DebugDialog = onDemand<ComponentProps<typeof DebugDialogT>>("The debug view", () => import("./components/debug-dialog"), "DebugDialog");
export const SessionPermissions = onDemand<ComponentProps<typeof SessionPermissionsT>>("Session permissions", () => import("./components/session-permissions"), "SessionPermissions");

/**
 * The markdown pipeline (react-markdown, remark-gfm, micromark) is its own
 * chunk: main.tsx starts loading it at start-up, in parallel with opening the
 * database, so it is usually there before the first message renders; until
 * then (or if it cannot be fetched) a message shows as plain text.
 */
export const Markdown = onDemand<ComponentProps<typeof MarkdownT>>("Markdown", () => import("./components/markdown"), "Markdown", ({ text }) => <div className="markdown plain-text">{text}</div>);
