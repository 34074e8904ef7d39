import { useEffect, useState } from "react";
import type { StartupReport } from "../../core/prompt/assemble";
import { whenIdle } from "../../app/warm-up";
import { useAppEvent } from "../app-events";
import { useServices } from "../hooks/services";

/**
 * What the session loaded: rules files, skills, and any warnings about them.
 * The scan happens with the first request (so files added before it count);
 * "Reload rules" re-reads them for the next request.
 */
export function StartupReportLine({ sessionID, version }: { sessionID: string; version: number }) {
  const { wiring, sandbox } = useServices();
  const [report, setReport] = useState<StartupReport>();
  const [reloads, setReloads] = useState(0);
  // Files the rules come from changed by the user's hand (an upload, a save in the viewer): read again, and say so.
  const [changed, setChanged] = useState<string>();
  const reload = () =>
    wiring.assembler().then((a) => {
      a.invalidate(sessionID);
      setReloads((n) => n + 1);
    });
  useAppEvent("rules-changed", (d) => {
    if (d.sessionID !== sessionID) return;
    const names = d.paths.map((p) => (p.split("/").at(-1) === "SKILL.md" ? `skill ${p.split("/").at(-2)}` : p));
    const shown = names.length > 3 ? `${names.slice(0, 2).join(", ")} and ${names.length - 2} more` : names.join(", ");
    setChanged(`${shown} changed: rules read again for the next message.`);
    void reload();
  });
  // Said until the next message goes (it then uses them).
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared when the conversation moves on
  useEffect(() => setChanged(undefined), [version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` and `reloads` re-read the report
  useEffect(() => {
    let live = true;
    if (version === 0) return;
    // After the messages have painted: the scan opens the session's sandbox and loads the rules code,
    // none of which the first screen of a session needs.
    whenIdle(() => {
      if (!live) return;
      void (async () => {
        const sb = await sandbox.sandboxFor(sessionID).catch(() => undefined);
        const assembler = await wiring.assembler();
        await assembler.scan(sessionID, sb).catch(() => undefined);
        const r = await assembler.report(sessionID);
        if (live) setReport(r);
      })();
    });
    return () => {
      live = false;
    };
  }, [wiring, sandbox, sessionID, version, reloads]);
  if (!report) return null;
  const files = report.rulesFiles.map((f) => f.split("/").pop()).join(", ");
  return (
    <span className="startup-report" title={report.rulesFiles.join("\n")}>
      {report.rulesFiles.length ? `Rules: ${files}` : "No rules files"} · {report.skills} skill{report.skills === 1 ? "" : "s"}
      <button
        type="button"
        className="link"
        title="Re-read AGENTS.md and skills now; the next request uses them (the prompt cache starts over once)"
        onClick={() => {
          setChanged(undefined);
          void reload();
        }}
      >
        Reload rules
      </button>
      {/* Always there, empty until it has something to say: a live region inserted with its text is not announced. */}
      <span className={changed ? "rules-changed" : undefined} role="status">
        {changed}
      </span>
      {report.warnings.length > 0 && (
        <details className="warnings">
          <summary>
            ⚠ {report.warnings.length} warning{report.warnings.length === 1 ? "" : "s"}
          </summary>
          <ul>
            {report.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
    </span>
  );
}
