import { contextXray, type XraySection } from "../../core/compaction/xray";
import type { LLMToolSpec, ModelConfig } from "../../core/ports/llm";
import type { MessageWithParts } from "../../core/schema";
import type { Settings } from "../../core/settings";
import { formatTokens } from "../format";

const STATUS_LABEL = { sent: "sent", summarised: "summarised away", reverted: "reverted", dropped: "not sent" } as const;

function Row({ s, max }: { s: XraySection; max: number }) {
  const width = max > 0 ? Math.max(1, Math.round(((s.status === "sent" ? s.tokens : s.size) / max) * 100)) : 0;
  const flags = [s.summary && "summary", s.compaction && "compaction request", s.tail && "kept verbatim", s.pruned > 0 && `${s.pruned} tool output${s.pruned === 1 ? "" : "s"} cleared`, s.media > 0 && `${s.media} media`, !s.exact && "estimated"].filter(Boolean);
  return (
    <li className={`xray-row xray-${s.status}`}>
      <span className="xray-label">{s.label}</span>
      <span className="xray-bar" aria-hidden="true">
        <span style={{ width: `${width}%` }} />
      </span>
      <span className="xray-tokens">{formatTokens(s.status === "sent" ? s.tokens : s.size)}</span>
      <span className="xray-status">
        {STATUS_LABEL[s.status]}
        {flags.length ? ` · ${flags.join(" · ")}` : ""}
      </span>
    </li>
  );
}

interface Props {
  messages: MessageWithParts[];
  revertMessageID?: string;
  system?: string[];
  tools?: LLMToolSpec[];
  model: ModelConfig;
  settings: Settings;
  encoding: string;
  ratio: number;
}

/** What the model sees on the next call: every section with its tokens, the compaction boundary, and the window. */
export function XrayView(props: Props) {
  const x = contextXray({ ...props, settings: props.settings });
  const max = Math.max(...x.sections.map((s) => (s.status === "sent" ? s.tokens : s.size)), 1);
  const hidden = x.sections.filter((s) => s.status === "summarised");
  const rest = x.sections.filter((s) => s.status !== "summarised");
  const firstMessage = rest.findIndex((s) => s.kind === "message");
  return (
    <div className="xray">
      <p className="xray-summary" role="status">
        Next request ≈ <strong>{formatTokens(x.total)}</strong> tokens{x.exact ? "" : " (partly estimated)"} of {formatTokens(x.usable)} usable ({Math.round(x.fraction * 100)}%); auto-compaction at {formatTokens(x.overflowAt)}; window {formatTokens(x.contextWindow)}.
      </p>
      <div className="xray-meter" aria-hidden="true">
        <span style={{ width: `${Math.min(100, x.fraction * 100)}%` }} className={x.total >= x.overflowAt ? "hot" : ""} />
        <i style={{ left: `${Math.min(100, (x.overflowAt / Math.max(1, x.usable)) * 100)}%` }} />
      </div>
      <ol className="xray-list" aria-label="Context sections">
        {rest.slice(0, firstMessage < 0 ? rest.length : firstMessage).map((s) => (
          <Row key={s.key} s={s} max={max} />
        ))}
        {hidden.length > 0 && (
          <>
            {hidden.map((s) => (
              <Row key={s.key} s={s} max={max} />
            ))}
            <li className="xray-boundary" aria-label="Compaction boundary">
              Compaction boundary — the model sees the summary below instead of the {hidden.length} message{hidden.length === 1 ? "" : "s"} above
            </li>
          </>
        )}
        {(firstMessage < 0 ? [] : rest.slice(firstMessage)).map((s) => (
          <Row key={s.key} s={s} max={max} />
        ))}
      </ol>
    </div>
  );
}
