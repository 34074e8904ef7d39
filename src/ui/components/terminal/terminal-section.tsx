import { useState } from "react";
import type { MessageWithParts } from "../../../core/schema";
import { TerminalPane } from "../../lazy";

const OPEN_KEY = "tabcode.terminalOpen";

function storedOpen(): boolean {
  try {
    return localStorage.getItem(OPEN_KEY) === "1";
  } catch {
    return false;
  }
}

/** The Terminal section of the Files panel: a toggle (remembered) and, when open, the lazily loaded pane. */
export function TerminalSection({ sessionID, messages }: { sessionID: string; messages: MessageWithParts[] }) {
  const [open, setOpen] = useState(storedOpen);
  const [opened, setOpened] = useState(false);
  const toggle = () => {
    setOpen(!open);
    setOpened(!open);
    try {
      localStorage.setItem(OPEN_KEY, open ? "0" : "1");
    } catch {
      // Private mode: remembered for this page only.
    }
  };
  return (
    <section className="terminal-section" aria-label="Terminal">
      <h2>
        <button type="button" className="section-toggle" aria-expanded={open} aria-controls="terminal-pane" onClick={toggle}>
          <span aria-hidden="true">{open ? "▾" : "▸"}</span> Terminal
        </button>
      </h2>
      <div id="terminal-pane" hidden={!open}>
        {open && <TerminalPane sessionID={sessionID} messages={messages} reveal={opened} />}
      </div>
    </section>
  );
}
