import { GOAL_SYNTAX, parseGoal } from "../../core/session/goal-syntax";

/** Slash commands typed in the composer: `/name [argument]`. */
export type SlashName = "goal" | "compact" | "pin" | "fork" | "undo" | "redo" | "export" | "model" | "agent" | "new" | "help";

export interface SlashCommand {
  name: SlashName;
  hint: string;
  /** Shown after the name in the palette, e.g. "[build|plan]". */
  arg?: string;
}

export const SLASH_COMMANDS: SlashCommand[] = [
  { name: "compact", hint: "Summarise the conversation so far" },
  { name: "pin", hint: "Pin a constraint: sent with every request, kept through every summary", arg: "<text>" },
  { name: "fork", hint: "Copy this session (and its files) into a new one" },
  { name: "undo", hint: "Revert the last turn, files included" },
  { name: "redo", hint: "Bring back what /undo reverted" },
  { name: "export", hint: "Download this session as JSON" },
  { name: "model", hint: "Switch this session's model (the model menu by Send)" },
  { name: "agent", hint: "Switch agent: Build may change files, Plan is read-only", arg: "[build|plan]" },
  {
    name: "goal",
    hint: "Keep working across turns until the condition holds or the budget is spent (default 200k tokens); /goal stop ends it",
    arg: "<objective> [until <condition>] [budget 200k tokens|$2]",
  },
  { name: "new", hint: "Start a new session" },
  { name: "help", hint: "Keyboard shortcuts and commands" },
];

/** The commands the palette offers for what is typed (only while the text is a single `/word`). */
export function slashMatches(text: string): SlashCommand[] {
  const m = /^\/([a-z]*)$/i.exec(text);
  if (!m) return [];
  const q = (m[1] ?? "").toLowerCase();
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(q));
}

export type ParsedSlash = { ok: true; name: SlashName; arg: string } | { ok: false; error: string };

/** Parses a whole message as a slash command; undefined when it is not one (a normal prompt). */
export function parseSlash(text: string): ParsedSlash | undefined {
  const m = /^\/([a-z]+)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!m) return undefined;
  const name = (m[1] ?? "").toLowerCase();
  const cmd = SLASH_COMMANDS.find((c) => c.name === name);
  const arg = (m[2] ?? "").trim();
  // "/tmp is full" is a prompt; a lone unknown "/word" is most likely a mistyped command.
  if (!cmd) return arg ? undefined : { ok: false, error: `There is no /${name} command. Type / to see the commands.` };
  if (cmd.name === "pin" && !arg) return { ok: false, error: "/pin needs the constraint to pin, e.g. “/pin never touch config/”." };
  if (cmd.name === "agent" && arg && arg !== "build" && arg !== "plan") return { ok: false, error: `/agent takes build or plan, not “${arg}”.` };
  if (cmd.name === "goal") {
    if (!arg) return { ok: false, error: `/goal needs an objective: ${GOAL_SYNTAX}` };
    const goal = arg.toLowerCase() === "stop" ? undefined : parseGoal(arg);
    if (goal && !goal.ok) return { ok: false, error: `/goal: ${goal.error}` };
  }
  return { ok: true, name: cmd.name, arg };
}
