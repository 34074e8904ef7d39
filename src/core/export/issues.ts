import type { z } from "../zod";

/** A field path as written in error messages: `messages[3].parts[0].state.status`. */
export function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** What kind of JSON value this is, in words. */
export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof v;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** A short, safe rendering of an offending value for an error message. */
export function show(v: unknown): string {
  if (typeof v === "string") {
    const s = v.length > 40 ? `${v.slice(0, 40)}…` : v;
    return JSON.stringify(s);
  }
  if (typeof v === "number" || typeof v === "boolean" || v === null) return String(v);
  return kindOf(v);
}

function reason(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `required field is missing (expected ${issue.expected})`;
      return `expected ${issue.expected}, got ${kindOf(value)}`;
    case "invalid_union":
      if ("options" in issue && Array.isArray(issue.options) && issue.options.length > 0)
        return `expected one of ${issue.options.map(String).join("|")}, got ${value === undefined ? "nothing" : show(value)}`;
      return "does not match any allowed shape";
    case "invalid_value":
      return `expected one of ${issue.values.map(String).join("|")}, got ${show(value)}`;
    case "invalid_format":
      if (issue.format === "starts_with" && "prefix" in issue) return `must start with "${String(issue.prefix)}", got ${show(value)}`;
      return `${issue.message}, got ${show(value)}`;
    case "too_small":
      return `${issue.message.replace(/^Too small: /, "")}, got ${show(value)}`;
    case "too_big":
      return `${issue.message.replace(/^Too big: /, "")}, got ${show(value)}`;
    default:
      return issue.message;
  }
}

/**
 * Turns a zod failure into one line naming the field and why, e.g.
 * `messages[3].parts[0].state.status: expected one of pending|running|completed|error, got "done"`.
 * `input` is the value that was parsed, used to show what was found.
 */
export function describeIssues(prefix: string, error: z.core.$ZodError, input: unknown): string {
  const [first] = error.issues;
  if (!first) return `${prefix || "file"}: invalid`;
  const where = joinPath(prefix, first.path) || "file";
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? "s" : ""} here)` : "";
  return `${where}: ${reason(first, valueAt(input, first.path))}${more}`;
}
