import { useEffect, useState } from "react";
import { UserText } from "./user-text";
import type { Part, StepFinishPart } from "../../../core/schema";
import { assertNever } from "../../../core/util/assert";
import { formatCost, formatTokens } from "../../format";
import { Markdown } from "../../lazy-markdown";
import { useMessageActions } from "../../hooks/message-actions";
import { useServices } from "../../hooks/services";
import { PatchStrip } from "./patch-strip";
import { ToolPartView } from "./tool-part";
import { AttachIcon } from "../icons";
import { providerCompactionOf } from "../../../core/conversation/provider-compaction";

/** The time now, ticking every 250 ms while shown. */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** "retrying in N s", and a button that ends the wait now (the provider asked for a long one, or the limit has reset). */
function Countdown({ until, sessionID }: { until: number; sessionID: string }) {
  const now = useNow();
  const { sessions } = useServices();
  // After Retry now: "woken" (the wait ended here), or "elsewhere" (no wait in this tab: another tab runs it).
  const [pressed, setPressed] = useState<"woken" | "elsewhere">();
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  if (left === 0 || pressed === "woken") return <span>retrying…</span>;
  return (
    <>
      <span>retrying in {left} s</span>{" "}
      <button type="button" className="link" onClick={() => void sessions.retryNow(sessionID).then((here) => setPressed(here ? "woken" : "elsewhere"))}>
        Retry now
      </button>
      {pressed === "elsewhere" && <span className="hint"> (no wait to cut short in this tab: if another tab runs this session, press Retry now there)</span>}
    </>
  );
}

/** A step's usage line (cache writes and reads as the provider reported them) and any warnings it recovered from. */
function StepFinishView({ part }: { part: StepFinishPart }) {
  const t = part.tokens;
  const cache = [t.cache.read ? `${formatTokens(t.cache.read)} cached` : "", t.cache.write ? `${formatTokens(t.cache.write)} cache write` : ""].filter(Boolean).join(", ");
  return (
    <>
      <div className="step-finish" title="Usage of this step">
        {part.usageUnknown ? (
          "usage not reported"
        ) : (
          <>
            {formatTokens(t.input + t.cache.read + t.cache.write)} in{cache ? ` (${cache})` : ""} · {formatTokens(t.output + t.reasoning)} out
            {t.reasoning ? ` (${formatTokens(t.reasoning)} reasoning)` : ""}
          </>
        )}{" "}
        · {part.priceUnknown ? "price unknown" : formatCost(part.cost)}
      </div>
      {part.warnings?.map((w) => (
        <p key={w} className="step-warning" role="note">
          {w}
        </p>
      ))}
    </>
  );
}

/** A compaction the provider did on its side: a divider; its summary is the provider's (OpenAI's is encrypted, Anthropic's read-only). */
function ProviderCompactionView({ text }: { text: string }) {
  return (
    <div className="provider-compaction" role="note" aria-label="Compacted by the provider">
      <div className="system-line">
        <span className="system-text" title="The provider summarised the earlier conversation on its side. Its summary is opaque: tabcode cannot edit it, and it is sent back as it came.">
          Compacted by the provider · opaque summary, not editable
        </span>
      </div>
      {text && (
        <details className="provider-compaction-text">
          <summary>What the provider kept (read-only)</summary>
          <div className="user-text">{text}</div>
        </details>
      )}
    </div>
  );
}

/** One renderer per part type; exhaustive over the union. */
export function PartView({ part, role, live }: { part: Part; role: "user" | "assistant"; /** Its message is still being answered. */ live?: boolean }) {
  const streaming = useMessageActions()?.busy === true;
  switch (part.type) {
    case "text":
      if (part.ignored) return null;
      // An attached file's text goes to the model; the person sees the file's chip.
      if (role === "user" && part.synthetic && part.metadata?.attachment === true) return null;
      if (providerCompactionOf(part)) return <ProviderCompactionView text={part.text} />;
      if (role === "user") return <UserText className={`user-text${part.synthetic ? " synthetic" : ""}`} text={part.text} />;
      return <Markdown text={part.text} streaming={streaming && part.time !== undefined && part.time.end === undefined} />;
    case "reasoning":
      return (
        <details className="reasoning">
          <summary>Reasoning{part.time.end ? "" : "…"}</summary>
          <div className="reasoning-text">{part.text}</div>
        </details>
      );
    case "file":
      // Only inline raster images are shown (never a remote URL, never SVG).
      return /^data:image\/(?:png|jpeg|gif|webp);base64,/.test(part.url) ? (
        <figure className="file-part">
          <img src={part.url} alt={part.filename ?? "attached image"} />
          <figcaption>{part.filename}</figcaption>
        </figure>
      ) : (
        <div className="file-part">
          {part.source?.type === "file" ? (
            `@${part.source.path}`
          ) : (
            <>
              <AttachIcon /> {`${part.filename ?? "file"} (${part.mime})`}
            </>
          )}
        </div>
      );
    case "tool":
      return <ToolPartView part={part} />;
    case "step-start":
    case "snapshot":
      return null;
    case "step-finish":
      return <StepFinishView part={part} />;
    case "patch":
      return <PatchStrip part={part} />;
    case "agent":
      return <span className="agent-part">@{part.name}</span>;
    case "subtask":
      return (
        <div className="subtask-part">
          Subtask for @{part.agent}: {part.description}
        </div>
      );
    case "retry": {
      const msg = typeof part.error.data.message === "string" ? part.error.data.message : part.error.name;
      return (
        <div className="retry-part" role="status">
          Attempt {part.attempt} failed: {msg}
          {/* Once nothing runs (stopped, or the retries ended) there is no retry to count down to. */}
          {streaming && live !== false ? <> — {part.time.next ? <Countdown until={part.time.next} sessionID={part.sessionID} /> : "retrying"}</> : "."}
        </div>
      );
    }
    case "compaction":
      return <div className="compaction-part">{part.auto ? "Automatic" : "Manual"} compaction: the conversation above was summarised.</div>;
    default:
      return assertNever(part, "part");
  }
}
