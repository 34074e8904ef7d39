import { contextXray, type XrayExtra, type XraySection } from "../../core/compaction/xray";
import type { LLMToolSpec, ModelConfig, ModelPrices } from "../../core/ports/llm";
import type { ConversationView } from "../../core/conversation/view";
import type { Settings } from "../../core/settings";
import type { CountMemo } from "../../core/tokens/request-size";
import { MESSAGE_OVERHEAD } from "../../core/tokens/part-text";
import { Fragment } from "react";
import { formatCost, formatTokens } from "../format";

const STATUS_LABEL = { sent: "sent", summarised: "summarised away", reverted: "reverted", dropped: "not sent" } as const;

function Row({ s, max }: { s: XraySection; max: number }) {
  const width = max > 0 ? Math.max(1, Math.round(((s.status === "sent" ? s.tokens : s.size) / max) * 100)) : 0;
  const flags = [s.summary && "summary", s.writtenBy && `written by ${s.writtenBy.modelID} for ${formatCost(s.writtenBy.cost)}`, s.compaction && "compaction request", s.tail && "kept verbatim", s.pruned > 0 && `${s.pruned} tool output${s.pruned === 1 ? "" : "s"} cleared`, s.media > 0 && `${s.media} media`, !s.exact && "estimated"].filter(Boolean);
  return (
    <li className={`xray-row xray-${s.status}`} data-tokens={s.tokens}>
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

const signed = (n: number) => (n < 0 ? `−${formatTokens(-n)}` : `+${formatTokens(n)}`);

/** A part of the total that is no section: the request's framing, the calibration. */
function ExtraRow({ e, max }: { e: XrayExtra; max: number }) {
  const width = max > 0 ? Math.max(1, Math.round((Math.abs(e.tokens) / max) * 100)) : 0;
  const label = e.key === "calibration" ? `${e.label} (×${(e.ratio ?? 1).toFixed(2)})` : e.label;
  const why = e.key === "calibration" ? "estimated · from what the provider billed" : "fixed · system and reply markers";
  return (
    <li className="xray-row xray-extra" data-key={e.key} data-tokens={e.tokens}>
      <span className="xray-label">{label}</span>
      <span className="xray-bar" aria-hidden="true">
        <span style={{ width: `${width}%` }} />
      </span>
      <span className="xray-tokens">{signed(e.tokens)}</span>
      <span className="xray-status">{why}</span>
    </li>
  );
}

interface Props {
  /** Replay: the sections are what one past step was sent, not the next request. */
  past?: boolean;
  /** Prices of the model, for the estimated cost of the next request. */
  prices?: ModelPrices;
  /** Mark the prefix the provider can serve from its cache (the sections the previous request already sent). */
  showCache?: boolean;
  view: ConversationView;
  system?: string[];
  tools?: LLMToolSpec[];
  model: ModelConfig;
  settings: Settings;
  encoding: string;
  ratio: number;
  /** Exact counts of system sections and tool specs (`SessionService.countMemo`), so the totals are the header's. */
  memo?: CountMemo;
  /** The extra message after the summary in force (the header's size counts it too). */
  afterSummary?: string;
}

/** What the model sees on the next call: every section with its tokens, the compaction boundary, and the window. */
export function XrayView(props: Props) {
  const x = contextXray({ ...props, settings: props.settings });
  const max = Math.max(...x.sections.map((s) => (s.status === "sent" ? s.tokens : s.size)), ...x.extras.map((e) => Math.abs(e.tokens)), 1);
  const calibration = x.extras.some((e) => e.key === "calibration");
  const hidden = x.sections.filter((s) => s.status === "summarised");
  const rest = x.sections.filter((s) => s.status !== "summarised" && s.status !== "reverted");
  // Reverted messages come after the total: they are not in the request.
  const reverted = x.sections.filter((s) => s.status === "reverted");
  const firstMessage = rest.findIndex((s) => s.kind === "message");
  // The previous request ended before the newest assistant step: what comes before it is the cached prefix.
  const lastStep = [...props.view.shown].reverse().find((m) => m.info.role === "assistant" && !m.info.summary)?.info.id;
  const cacheEnd = props.showCache && lastStep ? rest.findIndex((s) => s.kind === "message" && s.key >= lastStep) : -1;
  const cachedTokens = cacheEnd > 0 ? rest.slice(0, cacheEnd).reduce((n, s) => n + s.tokens, 0) : 0;
  const cost = props.prices ? ((x.total - cachedTokens) * props.prices.input + cachedTokens * props.prices.cacheRead) / 1_000_000 : undefined;
  return (
    <div className="xray">
      <p className="xray-summary" role="status">
        {props.past ? "This step was sent" : "Next request"} ≈ <strong data-testid="xray-total" data-tokens={x.total}>{formatTokens(x.total)}</strong> tokens of {formatTokens(x.usable)} usable ({Math.round(x.fraction * 100)}%); auto-compaction at {formatTokens(x.overflowAt)}; window {formatTokens(x.contextWindow)}.
        {cachedTokens > 0 && ` About ${formatTokens(cachedTokens)} of it is a prefix the provider can serve from its cache.`}
        {cost !== undefined && ` Estimated input cost: ${formatCost(cost)}.`}
      </p>
      {/* Which numbers are exact and which estimated: the rows below add up to the total. */}
      <p className="hint xray-note">
        {`The rows are the tokenizer's counts of their text${x.exact ? "" : " (those marked “estimated”: text not counted yet)"}, plus ${MESSAGE_OVERHEAD} tokens of framing per message. `}
        {calibration
          ? "Calibration scales their sum to what the provider billed for this model's earlier requests, so the total is an estimate."
          : "No calibration to the provider's own count learnt in this tab yet: its count may differ."}
      </p>
      <div className="xray-meter" aria-hidden="true">
        <span style={{ width: `${Math.min(100, x.fraction * 100)}%` }} className={x.total >= x.overflowAt ? "hot" : ""} />
        <i style={{ left: `${Math.min(100, (x.overflowAt / Math.max(1, x.usable)) * 100)}%` }} />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard to scroll it */}
      <ol className="xray-list" aria-label="Context sections" tabIndex={0}>
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
        {(firstMessage < 0 ? [] : rest.slice(firstMessage)).map((s, i) => (
          <Fragment key={s.key}>
            {cacheEnd > 0 && firstMessage + i === cacheEnd && (
              <li className="xray-cache" aria-label="End of the cached prefix">
                Cached prefix ends here — the previous request already sent everything above
              </li>
            )}
            <Row s={s} max={max} />
          </Fragment>
        ))}
        {x.extras.map((e) => (
          <ExtraRow key={e.key} e={e} max={max} />
        ))}
        <li className="xray-row xray-sum" data-tokens={x.total}>
          <span className="xray-label">Total</span>
          <span />
          <span className="xray-tokens">{formatTokens(x.total)}</span>
          <span className="xray-status">{["sent rows", ...x.extras.map((e) => e.key)].join(" + ")}</span>
        </li>
        {reverted.map((s) => (
          <Row key={s.key} s={s} max={max} />
        ))}
      </ol>
    </div>
  );
}
