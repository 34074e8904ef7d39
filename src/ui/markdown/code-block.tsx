import { type ReactNode, useEffect, useState } from "react";
import { CopyButton } from "./copy-button";
import type { HlNode } from "./highlight";

type Highlighter = (lang: string, code: string) => HlNode[] | undefined;
let loading: Promise<Highlighter> | undefined;
/** The highlighter chunk, loaded the first time a finished code block needs it. */
function loadHighlighter(): Promise<Highlighter> {
  loading ??= import("./highlight").then((m) => m.highlight);
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
    loadHighlighter().then(
      (hl) => {
        const out = hl(lang, code) ?? null;
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
      <pre className={wrap ? "wrap" : undefined}>
        <code className={lang ? `hljs language-${lang}` : undefined}>{nodes ? renderNodes(nodes) : code}</code>
      </pre>
    </div>
  );
}
