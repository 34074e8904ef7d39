import { useState } from "react";
import { SAMPLES, SAMPLES_PATH } from "../../adapters/demo/samples";
import { importFile } from "../../app/session-actions";
import { useServices } from "../hooks/services";

/** Sample sessions shipped with the app: they open instantly (a second open reuses the first copy). */
export function Samples({ onOpen, onError }: { onOpen: (id: string) => void; onError: (m: string) => void }) {
  const app = useServices();
  const [busy, setBusy] = useState<string>();
  const open = async (file: string) => {
    setBusy(file);
    try {
      const res = await fetch(`${import.meta.env.BASE_URL}${SAMPLES_PATH}${file}`);
      if (!res.ok) throw new Error(`the sample could not be loaded (HTTP ${res.status})`);
      const text = await res.text();
      const { parseImport } = await import("../../core/export");
      const parsed = parseImport(text);
      const id = parsed.ok ? parsed.value.sessions[0]?.info.id : undefined;
      if (id && (await app.store.getSession(id))) return onOpen(id);
      const r = await importFile(app, new TextEncoder().encode(text));
      if (!r.ok) throw new Error(r.error);
      const first = r.value.sessionIDs[0];
      if (first) onOpen(first);
    } catch (e) {
      onError(`Could not open the sample: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section className="samples" aria-label="Sample sessions">
      <h2>Sample sessions</h2>
      <p className="hint">Made with the demo model: open one, look around, replay it, fork it.</p>
      <div className="welcome-actions">
        {SAMPLES.map((s) => (
          <button key={s.file} type="button" disabled={busy !== undefined} onClick={() => void open(s.file)}>
            Open sample: {s.title.replace(/^Sample: /, "")}
          </button>
        ))}
      </div>
    </section>
  );
}
