import { type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { acceptsImages } from "../../core/model-table";
import type { Session } from "../../core/schema";
import { sessionModelConfig } from "../../core/settings";
import { drafts, useAppEvent } from "../app-events";
import { AttachmentChips } from "../composer/attachment-chips";
import { ModelPicker } from "../composer/model-picker";
import { moveActive, OptionList } from "../composer/option-list";
import { useAttachments } from "../composer/use-attachments";
import { MENTION_LIST_ID, useMentions } from "../composer/use-mentions";
import { PALETTE_ID, optionID, SlashPalette } from "../composer/slash-palette";
import { parseSlash, type SlashCommand, slashMatches } from "../composer/slash";
import { useRunningElsewhere } from "../composer/use-running-elsewhere";
import { type Agent, useSlashRunner } from "../composer/use-slash";
import { useServices, useSessionStatus, useSettings } from "../hooks/services";
import { PHONE, useMedia } from "../hooks/use-media";
import { glanceTyping } from "../glance/keeper";

const AGENT_NAME: Record<Agent, string> = { build: "Build", plan: "Plan (read-only)" };

/** The box's placeholder by the session's state: short on a phone (the box sizes itself to it, and the key hints are for keyboards). */
const PLACEHOLDER = {
  elsewhere: {
    wide: "This session is running in another tab — you can watch it here; a message sent now is answered there after its current turn",
    phone: "Running in another tab: a message is answered there",
  },
  busy: { wide: "The agent is working — a message sent now is delivered after this step", phone: "Working — a message goes after this step" },
  idle: { wide: "Ask tabcode to do something…  (Enter to send, Shift+Enter for a new line, / for commands, @ for files)", phone: "Ask tabcode… (/ commands, @ files)" },
} as const;

interface Props {
  session: Session;
  onError: (message: string) => void;
  onOpenSession: (id: string) => void;
}

/** The images of a paste or drop (other files are left to the Files panel). */
function imagesOf(list: FileList, onError: (m: string) => void): File[] {
  const files = [...list];
  const images = files.filter((f) => f.type.startsWith("image/") || f.type === "");
  if (images.length < files.length) onError("Only images can be attached here; add other files in the Files panel, then mention them with @.");
  return images;
}

/** What the model will do with the images: a notice when it does not take them (or tabcode does not know). */
function imageNotice(modelID: string, provider: string, hasImages: boolean): string | undefined {
  if (!hasImages) return undefined;
  const a = provider === "demo" ? false : acceptsImages(modelID);
  if (a === false) return `${provider === "demo" ? "The demo model" : modelID} does not accept images: they are kept here and the model gets a text placeholder. Pick a model that accepts images in the model menu.`;
  if (a === undefined) return `tabcode does not know whether ${modelID} accepts images; they are sent as images.`;
  return undefined;
}

/**
 * The prompt box. Enter sends, Shift+Enter adds a line, Esc stops a run, Tab moves focus as everywhere.
 * Ctrl/⌘+. or /agent switches the agent (announced). A leading / opens the command palette, @ the
 * workspace files; pasted or dropped images are attached. A prompt sent during a run is queued.
 */
export function Composer({ session, onError, onOpenSession }: Props) {
  const sessionID = session.id;
  const initialAgent = session.agent;
  const { sessions, warm } = useServices();
  const settings = useSettings();
  const status = useSessionStatus(sessionID);
  const busy = status.type !== "idle";
  const phone = useMedia(PHONE);
  const [text, setText] = useState(() => drafts.get(sessionID));
  // The box survives a reload (a brief or a half-written prompt is not lost); sending empties it.
  useEffect(() => drafts.set(sessionID, text), [sessionID, text]);
  const [queued, setQueued] = useState(0);
  // The session's last agent: a plan session stays read-only when you come back to it.
  const [agent, setAgent] = useState<Agent>(initialAgent === "plan" ? "plan" : "build");
  const [announce, setAnnounce] = useState("");
  const [active, setActive] = useState(0);
  const [paletteClosed, setPaletteClosed] = useState(false);
  const elsewhere = useRunningElsewhere(sessionID, busy);
  const box = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const attachments = useAttachments(sessionID, onError, setAnnounce);
  const mention = useMentions(sessionID, text, caret);
  const model = sessionModelConfig(settings, session);
  const notice = imageNotice(model.modelID, model.provider, attachments.items.some((a) => a.kind === "image"));

  const switchAgent = (to?: Agent) => {
    const next = to ?? (agent === "build" ? "plan" : "build");
    setAgent(next);
    setAnnounce(`Agent: ${AGENT_NAME[next]}`);
  };
  useAppEvent("switch-agent", (d) => switchAgent(d?.agent));
  const runSlash = useSlashRunner(sessionID, switchAgent, onError, onOpenSession);

  const matches = paletteClosed ? [] : slashMatches(text);
  const mentionOpen = mention.start !== undefined && mention.items.length > 0;
  const current = matches[Math.min(active, matches.length - 1)];

  useEffect(() => {
    if (!busy && !elsewhere) setQueued(0);
  }, [busy, elsewhere]);

  // The composer is always in view: focusing it scrolls nothing, and without `preventScroll` the focus forced a
  // layout in the middle of a session's first render (~9 ms of an in-app open, profiled).
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the box when the session changes
  useEffect(() => {
    box.current?.focus({ preventScroll: true });
  }, [sessionID]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // Esc in an open dialog, menu or drawer closes that, it does not stop the run.
      const inOverlay = document.querySelector("dialog[open]") !== null || (e.target instanceof Element && e.target.closest('[role="menu"], .menu') !== null);
      // Esc in another field (search, rename) belongs to that field.
      const inOtherField = e.target instanceof Element && e.target !== box.current && e.target.closest("input, textarea, select") !== null;
      if (inOtherField) return;
      if (e.key === "Escape" && !e.shiftKey && !e.defaultPrevented && !inOverlay && sessions.isBusy(sessionID)) {
        e.preventDefault();
        sessions.abort(sessionID);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [sessions, sessionID]);

  const send = async () => {
    const value = text.trim();
    const files = attachments.items;
    if (!value && files.length === 0) return;
    // Everything the request needs loads side by side (the send would otherwise load it piece by piece).
    void warm?.(model);
    const slash = parseSlash(value);
    if (slash) {
      if (!slash.ok) {
        onError(slash.error);
        return;
      }
      setText("");
      await runSlash(slash.name, slash.arg);
      return;
    }
    if (busy || elsewhere) setQueued((q) => q + 1);
    setText("");
    attachments.clear();
    try {
      await sessions.prompt(sessionID, { text: value, agent, files: files.map(({ key: _k, kind: _t, ...f }) => f) });
    } catch (e) {
      setText(value);
      attachments.restore(files);
      onError(e instanceof Error ? e.message : String(e));
    }
  };

  const pick = (c: SlashCommand) => {
    if (c.arg) {
      setText(`/${c.name} `);
      box.current?.focus();
      return;
    }
    setText("");
    void runSlash(c.name, "");
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const pickMention = (path: string) => {
    const start = mention.start;
    if (start === undefined) return;
    const before = `${text.slice(0, start)}@${path} `;
    setText(before + text.slice(caret));
    setCaret(before.length);
    requestAnimationFrame(() => box.current?.setSelectionRange(before.length, before.length));
    void attachments.addWorkspace(path);
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (e.clipboardData.files.length === 0) return;
    e.preventDefault();
    void attachments.addFiles(imagesOf(e.clipboardData.files, onError));
  };
  const onDrop = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes("Files")) return;
    // The composer takes the drop: it is not an import of the whole app.
    e.preventDefault();
    e.stopPropagation();
    void attachments.addFiles(imagesOf(e.dataTransfer.files, onError));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention.start !== undefined && mention.items.length > 0) {
      const to = moveActive(e.key, mention.active, mention.items.length);
      if (to !== undefined) {
        e.preventDefault();
        mention.setActive(to);
        return;
      }
      if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
        e.preventDefault();
        const path = mention.items[mention.active];
        if (path) pickMention(path);
        return;
      }
    }
    if (mention.start !== undefined && e.key === "Escape") {
      e.preventDefault();
      mention.close();
      return;
    }
    if (matches.length > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
      return;
    }
    if (matches.length > 0 && e.key === "Escape") {
      e.preventDefault();
      setPaletteClosed(true);
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (current) pick(current);
      else void send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={onSubmit}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) {
          e.preventDefault();
          e.stopPropagation();
        }
      }}
      onDrop={onDrop}
    >
      {matches.length > 0 && <SlashPalette items={matches} active={Math.min(active, matches.length - 1)} onPick={pick} />}
      {mentionOpen && <OptionList id={MENTION_LIST_ID} label="Workspace files" items={mention.items} active={mention.active} onPick={pickMention} />}
      {mention.start !== undefined && !mention.loading && mention.items.length === 0 && (
        <p className="slash-palette mention-empty" role="status">
          No workspace file matches.
        </p>
      )}
      <AttachmentChips
        items={attachments.items}
        notice={notice}
        onRemove={(key) => {
          // The @path the pick inserted goes with its chip.
          const path = attachments.items.find((a) => a.key === key)?.path;
          if (path) setText((t) => t.replace(`@${path} `, "").replace(`@${path}`, ""));
          attachments.remove(key);
          box.current?.focus();
        }}
      />
      <label htmlFor="composer-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={box}
        value={text}
        onChange={(e) => {
          // Typing a message: what the send needs starts loading now, not on Send; the screen's glance waits.
          void warm?.(model);
          glanceTyping();
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
          setPaletteClosed(false);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        aria-autocomplete="list"
        aria-controls={mentionOpen ? MENTION_LIST_ID : matches.length > 0 ? PALETTE_ID : undefined}
        aria-activedescendant={mentionOpen ? `${MENTION_LIST_ID}-${mention.active}` : current ? optionID(current.name) : undefined}
        aria-describedby="composer-hint"
        placeholder={PLACEHOLDER[elsewhere ? "elsewhere" : busy ? "busy" : "idle"][phone ? "phone" : "wide"]}
        rows={3}
      />
      <span id="composer-hint" className="visually-hidden">
        Type / for commands, @ to attach a workspace file; paste or drop images to attach them. Ctrl or Command plus period switches the agent. Press question mark outside the box for all shortcuts.
      </span>
      <span className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </span>
      <div className="composer-actions">
        <ModelPicker session={session} />
        <label className="agent-select" title="Build may change files; Plan is read-only. Ctrl/⌘+. or /agent switches.">
          <span className="visually-hidden">Agent</span>
          <select aria-label="Agent" aria-keyshortcuts="Control+Period Meta+Period" value={agent} onChange={(e) => switchAgent(e.target.value === "plan" ? "plan" : "build")}>
            <option value="build">Build</option>
            <option value="plan">Plan (read-only)</option>
          </select>
        </label>
        <span className="shortcut-hint" aria-hidden="true">
          <kbd>Ctrl/⌘ .</kbd>
        </span>
        {queued > 0 && <span className="queued">{queued} queued</span>}
        {busy && (
          <button type="button" className="stop" onClick={() => sessions.abort(sessionID)} title="Stop (Esc)">
            Stop
          </button>
        )}
        {elsewhere && (
          <span className="queued" role="status">
            Running in another tab
          </span>
        )}
        <button type="submit" className="primary" disabled={!text.trim() && attachments.items.length === 0}>
          Send
        </button>
      </div>
    </form>
  );
}
