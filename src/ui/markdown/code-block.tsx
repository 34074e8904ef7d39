import { type ReactNode, useEffect, useState } from "react";
import { CopyButton } from "./copy-button";
import type { HlNode } from "./highlight";
import { ScrollPre } from "./scroll-pre";

type Highlighter = (lang: string, code: string) => Promise<HlNode[] | undefined>;
let loading: Promise<Highlighter> | undefined;

/** Highlighting in a Worker of its own (started the first time a finished code block needs it). */
function workerHighlighter(): Highlighter {
  const worker = new Worker(new URL("./highlight.worker.ts", import.meta.url), {
    type: "module",
  });
  const waiting = new Map<number, (nodes: HlNode[] | undefined) => void>();
  let next = 0;
  worker.onmessage = (e: MessageEvent<{ id: number; nodes: HlNode[] | undefined }>) => {
    waiting.get(e.data.id)?.(e.data.nodes);
    waiting.delete(e.data.id);
  };
  // A Worker that cannot start or dies leaves the blocks plain (they are readable without colours).
  worker.onerror = () => {
    for (const done of waiting.values()) done(undefined);
    waiting.clear();
  };
  return (lang, code) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      worker.postMessage({ id, lang, code });
    });
}

/** Resolves after the next paint (a frame, then a task); after a task where nothing is painted (no frames, a hidden tab). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0);
    if (typeof requestAnimationFrame === "function" && typeof document !== "undefined" && document.visibilityState === "visible") requestAnimationFrame(later);
    else later();
  });
}

/**
 * The highlighter: a Worker in the browser, the module itself where there are no Workers (tests).
 * The Worker is constructed after the next paint: building one is a synchronous 8–10 ms on the page,
 * and the first code block usually asks for it while a session is opening, before its first paint.
 */
function loadHighlighter(): Promise<Highlighter> {
  loading ??=
    typeof Worker === "function"
      ? afterNextPaint().then(workerHighlighter)
      : import("./highlight").then((m) => async (lang: string, code: string) => m.highlight(lang, code));
  return loading;
}
const cache = new Map<string, HlNode[] | null>();
const CACHE_MAX = 500;

function renderNodes(nodes: HlNode[]): ReactNode[] {
  return nodes.map((n, i) =>
    n.type === "text" ? (
      n.value
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: a static tree, never reordered
      <span key={i} className={n.className}>
        {renderNodes(n.children)}
      </span>
    ),
  );
}

/** Highlighted spans of a finished code block (undefined while loading, or for unknown languages). */
function useHighlight(lang: string | undefined, code: string, enabled: boolean): HlNode[] | undefined {
  const key = `${lang}\u0000${code}`;
  const [nodes, setNodes] = useState<HlNode[] | undefined>(() => cache.get(key) ?? undefined);
  useEffect(() => {
    if (!enabled || !lang) return;
    const hit = cache.get(key);
    if (hit !== undefined) {
      setNodes(hit ?? undefined);
      return;
    }
    let live = true;
    loadHighlighter()
      .then((hl) => hl(lang, code))
      .then(
        (nodes) => {
          const out = nodes ?? null;
          if (cache.size >= CACHE_MAX) cache.clear();
          cache.set(key, out);
          if (live) setNodes(out ?? undefined);
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [key, lang, code, enabled]);
  return enabled ? nodes : undefined;
}

/**
 * A fenced code block: language label, copy button, wrap toggle; highlighted once the block is
 * finished (`highlight`), plain while it streams.
 */
export function CodeBlock({ lang, code, highlight }: { lang: string | undefined; code: string; highlight: boolean }) {
  const [wrap, setWrap] = useState(false);
  const nodes = useHighlight(lang, code, highlight);

  return (
    <div className="code-block">
      <div className="code-bar">
        <span className="code-lang">{lang ?? "text"}</span>
        <button type="button" className="link" aria-pressed={wrap} onClick={() => setWrap(!wrap)} title="Wrap long lines">
          Wrap
        </button>
        <CopyButton text={() => code} label={`Copy ${lang ?? ""} code`.replace("  ", " ")} />
      </div>
      <ScrollPre className={wrap ? "wrap" : undefined}>
        <code className={lang ? `hljs language-${lang}` : undefined}>{nodes ? renderNodes(nodes) : code}</code>
      </ScrollPre>
    </div>
  );
}
