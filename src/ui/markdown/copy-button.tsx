import { useEffect, useState } from "react";

/** Copies `text` to the clipboard; says "Copied" (announced) for a moment, or why it could not. */
export function CopyButton({ text, label, className }: { text: () => string; label: string; className?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className={className ?? "link"}
      aria-label={label}
      title={label}
      onClick={() =>
        navigator.clipboard.writeText(text()).then(
          () => setState("copied"),
          () => setState("failed"),
        )
      }
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}</span>
    </button>
  );
}
