/**
 * Loading a component on demand: its own chunk, never in the entry bundle.
 * `onDemand` gives a component with the props of the one it stands for;
 * while its chunk loads it shows a status line (or the given fallback), and
 * a chunk that cannot be fetched (offline before the app was ever cached)
 * shows an alert instead of breaking the app.
 */
import { Component, type ComponentType, type LazyExoticComponent, type ReactNode, lazy, Suspense, useState } from "react";

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
  // One tree per mount: switching from the Suspense tree to the direct one when the chunk arrives would remount the component and lose its state.
  const [direct] = useState(() => loader.loaded() !== undefined);
  const Loaded = loader.loaded();
  if (direct && Loaded) return <Loaded {...props} />;
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
export function onDemand<P extends object>(what: string, load: () => Promise<Record<string, unknown>>, name: string, fallback?: (props: P) => ReactNode) {
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

