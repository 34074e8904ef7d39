import { useDeferredValue, useEffect, useMemo, useState } from "react";
import type { SessionStatus } from "../../core/bus";
import type { MessageWithParts, Session } from "../../core/schema";
import type { ConversationView } from "../../core/conversation/view";
import { sessionModelConfig } from "../../core/settings";
import { costWords, sessionUnpriced } from "../../core/export/totals";
import { formatTokens } from "../format";
import { tabTitle } from "../notifications/title";
import { useServices, useSettings } from "../hooks/services";
import { contextMeterAttributes, demoStandIn, meterText } from "../context-meter";
import { stepModelBeforeSwitch } from "../model-switch";
import { useNextRequestSize } from "../hooks/use-request-size";
import { PHONE, useMedia } from "../hooks/use-media";
import { useThrottled } from "../hooks/use-throttled";
import { HeaderActions } from "./header-actions";
import { StartupReportLine } from "./startup-report";
import { DebugDialog, SessionPermissions, ShareDialog, SummaryPreviewDialog, XrayDialog } from "../lazy";
import type { CompactionPreview } from "../../core/compaction/preview";

/** A subagent's session (imported from another agent): a link back to the session that called it, by its title. */
function SubagentOrigin({ parentID }: { parentID: string }) {
  const { store } = useServices();
  const [title, setTitle] = useState<string | null>();
  useEffect(() => {
    let live = true;
    store.getSession(parentID).then(
      (s) => live && setTitle(s ? s.title : null),
      () => live && setTitle(null),
    );
    return () => {
      live = false;
    };
  }, [store, parentID]);
  if (title === undefined) return null;
  return (
    <p className="fork-origin">
      {title === null ? "Subagent session (the session that called it is not in this browser)" : <>Subagent session of <a href={`#/s/${parentID}`}>{title}</a></>}
    </p>
  );
}

function statusText(s: SessionStatus): string {
  if (s.type === "busy") return "Working…";
  if (s.type === "retry") return `${s.message} — retry ${s.attempt}`;
  if (s.type === "awaiting-command") return "Waiting for your command…";
  return "Idle";
}

/** The tab shows the session, and a mark while it works (the attention badge is added by `tabTitle`). */
function useDocumentTitle(title: string, busy: boolean) {
  useEffect(() => {
    tabTitle.setBase(`${busy ? "● Working… · " : ""}${title} — tabcode`);
  }, [title, busy]);
  useEffect(
    () => () => {
      tabTitle.setBase("tabcode");
    },
    [],
  );
}

/** Title, live status, context fill, token totals and cost of a session. */
interface HeaderProps {
  session: Session;
  /** The conversation as shown and sent (`conversationView`). */
  view: ConversationView;
  /** Every message, for the X-ray (which shows reverted ones too). */
  allMessages: MessageWithParts[];
  status: SessionStatus;
  onError: (m: string) => void;
}

export function SessionHeader({ session, view, allMessages, status, onError }: HeaderProps) {
  const phone = useMedia(PHONE);
  const [sharing, setSharing] = useState(false);
  const [dialog, setDialog] = useState<"debug" | "permissions" | "xray" | null>(null);
  const { sessions } = useServices();
  const [preview, setPreview] = useState<CompactionPreview | null>(null);
  const failed = (e: unknown) => onError(`Could not compact: ${e instanceof Error ? e.message : String(e)}`);
  // Compact now shows what the summary would fold first.
  const compactNow = () => sessions.previewCompaction(session.id).then(setPreview, failed);
  const settings = useSettings();
  const model = sessionModelConfig(settings, session);
  // The next request's size, as the X-ray and Replay show it (one function: nextRequestSize).
  // While an answer streams, the size follows once a second (counting the whole history 20 times a second costs frames).
  // In a render of its own after the messages (counting a long history is a pass over all of it).
  const deferred = useDeferredValue(view);
  const sized = useThrottled(deferred, 1_000, status.type !== "idle");
  const { size, shape } = useNextRequestSize(session, sized.sent, sized.shown);
  const used = size.total;
  // Until the system prompt and tools are known and counted (built when the page is first idle, counted once the tokenizer has loaded), the size would leave out most of a short session's request.
  const measuring = shape === undefined;
  // The demo answers this session in place of the model it was recorded on (no API key): said beside the meter.
  const provider = model.provider;
  const standIn = useMemo(() => demoStandIn({ provider }, session, sized.shown), [provider, session, sized.shown]);
  const figure = meterText(size, model, standIn);
  const t = session.tokens;
  // Steps on a model with no known price are not in the total: the total says so instead of passing for the whole.
  // Counted on the session row, beside the cost, so it is right at the first paint of a long session whose older
  // messages are still being read; a row stored before that count was kept counts the messages.
  const rowUnpriced = session.unpriced;
  const unpriced = useMemo(() => sessionUnpriced({ unpriced: rowUnpriced }, allMessages), [rowUnpriced, allMessages]);
  const cost = costWords(session.cost, unpriced);
  // A model switched during a step applies from the next step: until then the header says both.
  const stepOn = model.provider === "demo" ? undefined : stepModelBeforeSwitch(allMessages, status, { providerID: model.provider, modelID: model.modelID });
  useDocumentTitle(session.title, status.type !== "idle");
  return (
    <header className="session-header">
      <div className="title-row">
        <h1 className="session-title">{session.title}</h1>
        <span className={`status status-${status.type}`} role="status" aria-live="polite" title={statusText(status)}>
          {statusText(status)}
        </span>
        <HeaderActions session={session} compactBlocked={
            status.type !== "idle"
              ? "The agent is working: compact when it is idle"
              : session.revert !== undefined
                ? "A revert is pending: Unrevert it, or send a message (which makes it permanent), then compact"
                : view.shown.length === 0
                  ? "Nothing to summarise yet"
                  : undefined
          } onCompact={() => void compactNow()} onShare={() => setSharing(true)} onDialog={setDialog} onError={onError} />
      </div>
      {!session.fork && session.parentID && <SubagentOrigin parentID={session.parentID} />}
      {session.fork && (
        <p className="fork-origin">
          {session.parentID ? "Started fresh from " : "Forked from "}
          <a href={`#/s/${session.fork.sessionID}/m/${session.fork.messageID}`}>{session.parentID ? "the parent session" : "the original session"}</a>
        </p>
      )}
      {preview && (
        <SummaryPreviewDialog
          preview={preview}
          upTo={false}
          onCancel={() => setPreview(null)}
          onConfirm={() => {
            setPreview(null);
            sessions.compact(session.id).catch(failed);
          }}
        />
      )}
      {sharing && <ShareDialog sessionID={session.id} onClose={() => setSharing(false)} />}
      {dialog === "xray" && <XrayDialog session={session} messages={allMessages} onClose={() => setDialog(null)} />}
      {dialog === "debug" && <DebugDialog session={session} onClose={() => setDialog(null)} />}
      {dialog === "permissions" && <SessionPermissions session={session} onClose={() => setDialog(null)} />}
      {/* On a phone the figures are one line that scrolls sideways (three wrapped lines took a fifth of the
          screen); the row is then a named tab stop, so it can be scrolled from the keyboard too. */}
      <div className="meters" {...(phone ? { role: "group", "aria-label": "Session figures", tabIndex: 0 } : {})}>
        {model.provider === "demo" ? (
          <span className="model-name" title="Model">
            Demo model
          </span>
        ) : stepOn ? (
          <span className="model-name switching" data-testid="model-switching" title={`This step runs on ${stepOn}; ${model.modelID} takes over from the next step`}>
            <span aria-hidden="true">
              {stepOn} → {model.modelID}
            </span>
            <span className="visually-hidden">
              This step runs on {stepOn}; {model.modelID} from the next step
            </span>
          </span>
        ) : (
          <span className="model-name" title={`${model.modelID}: the model of this session (switch it in the composer)`}>
            {model.modelID}
          </span>
        )}
        <div
          className="context-meter"
          title={measuring ? "Measuring the next request…" : `Next request: ${used.toLocaleString()} of ${size.usable.toLocaleString()} usable tokens${size.exact ? "" : " (partly estimated)"}; auto-compaction at ${size.overflowAt.toLocaleString()}`}
        >
          <span>Context</span>
          <meter
            className="meter"
            aria-label="Context window used"
            {...contextMeterAttributes(size)}
            aria-valuetext={measuring ? "being measured" : `${formatTokens(used)} of ${formatTokens(size.usable)} tokens (${figure.percent})`}
          />
          <span data-testid="context-percent" data-tokens={used} data-measuring={measuring || undefined}>
            {measuring ? "…" : figure.percent}
          </span>
        </div>
        {/* The cost right after the context: on a phone both stay in view, the rest scrolls. */}
        <span className="cost" data-testid="session-cost" title={`Cost of this session: ${cost.long}`}>
          {session.cost === 0 && unpriced === 0 && model.pricesUnknown ? "price unknown" : cost.short}
          {session.cost > 0 && unpriced > 0 && <span className="visually-hidden"> ({cost.long})</span>}
        </span>
        <span className="tokens" data-testid="session-tokens" title="Tokens used by this session">
          ↑{formatTokens(t.input + t.cache.read + t.cache.write)} ↓{formatTokens(t.output + t.reasoning)}
          {t.cache.read ? ` · ${formatTokens(t.cache.read)} cached` : ""}
          {t.cache.write ? ` · ${formatTokens(t.cache.write)} cache writes` : ""}
        </span>
        {t.input + t.cache.read + t.cache.write > 0 && (
          <span className="cache-rate" data-testid="cache-hit-rate" title="Share of input tokens served from the provider's prompt cache in this session">
            cache hit {Math.round((t.cache.read / (t.input + t.cache.read + t.cache.write)) * 100)}%
          </span>
        )}
        <StartupReportLine sessionID={session.id} version={view.shown.length} />
      </div>
      {figure.note && !measuring && (
        <p className="meter-note" role="note" data-testid="demo-stand-in">
          {figure.note}
        </p>
      )}
    </header>
  );
}
