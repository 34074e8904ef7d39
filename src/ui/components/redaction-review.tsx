import type { Finding } from "../../core/export";

/**
 * The redaction review before a session leaves the browser (share link or
 * export file): what `findSecrets` found, one checkbox each; checked ones are
 * replaced by "[redacted …]" in `target` ("the link", "the file").
 */
export function RedactionReview({ findings, remove, onChange, target }: { findings: readonly Finding[]; remove: ReadonlySet<string>; onChange: (next: Set<string>) => void; target: string }) {
  if (findings.length === 0) return <p>No API keys, tokens, private keys or .env secrets were found in this session.</p>;
  return (
    <fieldset className="redactions">
      <legend>These look like secrets. Checked ones are replaced by “[redacted …]” in {target}.</legend>
      {findings.map((f) => (
        <label className="check" key={f.value}>
          <input
            type="checkbox"
            checked={remove.has(f.value)}
            onChange={(e) => {
              const next = new Set(remove);
              if (e.target.checked) next.add(f.value);
              else next.delete(f.value);
              onChange(next);
            }}
          />
          Remove {f.kind} <code>{f.preview}</code> ({f.where}
          {f.count > 1 ? `, ${f.count} times` : ""})
        </label>
      ))}
    </fieldset>
  );
}
