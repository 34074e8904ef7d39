/**
 * The Files panel's New file, Rename and Delete dialogs (loaded on demand). The changes themselves are
 * `core/snapshot/user-files.ts`: the person's, kept out of a running step's patch, checked against the
 * protect rules, never over something the person was not shown.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";
import { isInstructionPath } from "../../../core/prompt/instruction-paths";
import type { Ruleset } from "../../../core/schema";
import { createUserPath, type DeleteScope, deleteScope, deleteUserPath, renameUserPath, type UserChange } from "../../../core/snapshot/user-files";
import { userPath } from "../../../core/workspace/user-path";
import { useModal } from "../../hooks/use-modal";
import { ConfirmDialog } from "../confirm-dialog";
import type { Reveal } from "./file-tree";
import { deleteQuestion, movedNote } from "./file-words";

/** What the person asked for: paths are relative to the workspace root. */
export type FileAction = { kind: "new"; dir?: string } | { kind: "rename"; rel: string; folder: boolean } | { kind: "delete"; rel: string; folder: boolean; shown?: Uint8Array };

/** What was done (`paths`: every file path touched, old and new); `note` when someone else had done it already. */
type Change =
  | { kind: "created"; rel: string; folder: boolean; paths: string[] }
  | { kind: "moved"; from: string; rel: string; folder: boolean; paths: string[] }
  | { kind: "deleted"; rel: string; folder: boolean; paths: string[]; note?: string };

/**
 * What the panel does next: its status line; the viewer (a file to show, null to close it); the tree row to
 * show, or New file to focus (a file at the top is gone); the rules files that changed.
 */
export interface FileActionDone {
  note: string;
  view?: { entry: FileEntry; edit?: boolean; note?: string } | null;
  reveal?: Reveal;
  focusNew?: boolean;
  rules: string[];
}

async function settle(sandbox: Sandbox, d: Change): Promise<FileActionDone> {
  const rules = d.paths.filter(isInstructionPath);
  const abs = `${sandbox.root}/${d.rel}`;
  const slash = d.folder ? "/" : "";
  if (d.kind === "deleted") {
    // Focus goes to the folder it was in, or to New file.
    const parent = d.rel.includes("/") ? d.rel.slice(0, d.rel.lastIndexOf("/")) : "";
    return { note: d.note ?? `Deleted ${d.rel}${slash}.`, view: null, rules, ...(parent ? { reveal: { path: `${sandbox.root}/${parent}`, focus: true } } : { focusNew: true }) };
  }
  const note = d.kind === "created" ? `Created ${d.rel}${slash}.` : movedNote(d.from, d.rel, d.folder);
  const entry = d.folder ? undefined : await sandbox.fs.stat(abs);
  // A file opens in the viewer (a new one in Edit mode; a renamed one was open there already); a folder's row
  // takes the focus, since the menu it was asked from may have gone with its old name.
  if (entry) return { note, view: d.kind === "created" ? { entry, edit: true } : { entry, note }, reveal: { path: abs, focus: false }, rules };
  return { note, reveal: { path: abs, focus: true }, rules };
}

interface Props {
  sandbox: Sandbox;
  action: FileAction;
  /** The rules in force (read at the moment of the change): protect rules refuse it. */
  rules: () => Promise<Ruleset[]>;
  onDone: (d: FileActionDone) => void;
  onCancel: () => void;
}

type Dialog = Omit<Props, "onDone"> & { onDone: (d: Change) => void };

type Outcome = { error: string } | { ask: string } | undefined;

/** A path to type: Enter or the submit button runs it; a refusal stays in the dialog with the text kept; a question (`ask`) turns the button into its answer. */
function PathDialog(props: { title: string; hint: string; initial: string; select: [number, number]; submit: string; askSubmit: string; run: (path: string, confirmed: boolean) => Promise<Outcome>; onCancel: () => void }) {
  const { title, hint, initial, select, submit, askSubmit, run, onCancel } = props;
  const ref = useModal();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(initial);
  const [error, setError] = useState("");
  const [ask, setAsk] = useState<string>();
  const [busy, setBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the dialog opens (after showModal put the caret in the field)
  useEffect(() => {
    input.current?.focus();
    input.current?.setSelectionRange(...select);
  }, []);
  const go = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const r = await run(value, ask !== undefined).catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }));
    setBusy(false);
    if (r && "ask" in r) {
      setAsk(r.ask);
      setError("");
    } else if (r) {
      setAsk(undefined);
      setError(r.error);
      input.current?.focus();
    }
  };
  return (
    <dialog ref={ref} className="dialog path-dialog" aria-labelledby={`${id}-title`} onCancel={onCancel} onClose={onCancel}>
      <form onSubmit={(e) => void go(e)}>
        <h2 id={`${id}-title`}>{title}</h2>
        <label className="field">
          Path in the workspace
          <input
            ref={input}
            value={value}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint ${id}-alert`}
            onChange={(e) => {
              setValue(e.target.value);
              setAsk(undefined);
              setError("");
            }}
          />
          <small id={`${id}-hint`}>{hint}</small>
        </label>
        <p id={`${id}-alert`} role="alert" className="error-text">
          {error || ask}
        </p>
        <div className="dialog-actions">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className={ask ? "danger" : "primary"} aria-disabled={busy || undefined}>
            {ask ? askSubmit : submit}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function DeleteDialog({ sandbox, rel, folder, shown, rules, onDone, onCancel }: Omit<Dialog, "action"> & { rel: string; folder: boolean; shown?: Uint8Array }) {
  const [scope, setScope] = useState<DeleteScope | null>(null);
  const [alert, setAlert] = useState("");
  // After "changed": the next Delete is the person's answer to what they were just told.
  const [anyway, setAnyway] = useState(false);
  const [busy, setBusy] = useState(false);
  const gone = (r: Extract<UserChange, { ok: false }>) => onDone({ kind: "deleted", rel, folder, paths: [], note: r.message });
  // biome-ignore lint/correctness/useExhaustiveDependencies: counted once, when asked; a change meanwhile is caught when it runs
  useEffect(() => {
    let live = true;
    void deleteScope(sandbox, rel).then((s) => {
      if (!live) return;
      if (s) setScope(s);
      else gone({ ok: false, message: `${rel} is no longer there (the agent may have moved or deleted it).` });
    });
    return () => {
      live = false;
    };
  }, []);
  if (!scope) return null;
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    const seen = anyway ? undefined : scope.type === "file" ? { bytes: shown } : { files: scope.files };
    const r = await deleteUserPath(sandbox, rel, await rules(), seen);
    setBusy(false);
    if (r.ok) return onDone({ kind: "deleted", rel, folder, paths: r.paths });
    if (r.ask) {
      setAnyway(true);
      setScope((await deleteScope(sandbox, rel)) ?? scope);
    } else if (!(await sandbox.fs.exists(`${sandbox.root}/${rel}`))) return gone(r);
    setAlert(r.message);
  };
  const q = deleteQuestion(rel, scope);
  return <ConfirmDialog title={q.title} body={q.body} confirmLabel={anyway ? "Delete anyway" : "Delete"} alert={alert} onConfirm={() => void confirm()} onCancel={onCancel} />;
}

/** The dialog for one action: New file, Rename (or move), Delete. */
export function FileActionDialog({ sandbox, action, rules, onDone: done, onCancel }: Props) {
  const onDone = (d: Change) => {
    settle(sandbox, d).then(done, (e: unknown) => done({ note: `${d.rel}: ${e instanceof Error ? e.message : String(e)}`, rules: [] }));
  };
  if (action.kind === "delete") return <DeleteDialog sandbox={sandbox} rel={action.rel} folder={action.folder} shown={action.shown} rules={rules} onDone={onDone} onCancel={onCancel} />;
  if (action.kind === "new") {
    const initial = action.dir ? `${action.dir}/` : "";
    return (
      <PathDialog
        title={action.dir ? `New file in ${action.dir}/` : "New file"}
        hint="Relative to the workspace, for example src/util.ts; missing folders are created. End it with / to make a folder."
        initial={initial}
        select={[initial.length, initial.length]}
        submit="Create"
        askSubmit="Create"
        onCancel={onCancel}
        run={async (typed) => {
          const p = userPath(sandbox.root, typed);
          if (!p.ok) return { error: p.error };
          const r = await createUserPath(sandbox, p.rel, p.folder, await rules());
          if (!r.ok) return { error: r.message };
          onDone({ kind: "created", rel: r.rel, folder: p.folder, paths: r.paths });
        }}
      />
    );
  }
  const { rel, folder } = action;
  // The name is selected, without its extension, so typing replaces just that.
  const start = rel.lastIndexOf("/") + 1;
  const dot = folder ? -1 : rel.lastIndexOf(".");
  return (
    <PathDialog
      title={`Rename or move ${rel}${folder ? "/" : ""}`}
      hint="Relative to the workspace. A path in another folder moves it there (missing folders are created); a folder that exists, or a path ending in /, receives it under its own name."
      initial={rel}
      select={[start, dot > start ? dot : rel.length]}
      submit="Rename"
      askSubmit="Replace"
      onCancel={onCancel}
      run={async (typed, confirmed) => {
        const p = userPath(sandbox.root, typed);
        if (!p.ok) return { error: p.error };
        const r = await renameUserPath(sandbox, rel, p.rel, await rules(), { into: p.folder, replace: confirmed });
        if (!r.ok) return r.ask ? { ask: r.message } : { error: r.message };
        onDone({ kind: "moved", from: rel, rel: r.rel, folder, paths: r.paths });
      }}
    />
  );
}
