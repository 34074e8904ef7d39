import { type InputHTMLAttributes, useEffect, useState } from "react";

/** Clamps `n` into [min, max] and rounds it when `integer`. */
export function clampNumber(n: number, { min, max, integer }: { min: number; max?: number; integer?: boolean }): number {
  const v = integer ? Math.round(n) : n;
  return Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(min, v));
}

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type" | "min" | "max"> & {
  value: number;
  onValue: (n: number) => void;
  min: number;
  max?: number;
  integer?: boolean;
};

/**
 * A number field that leaves what you type alone: the text is yours while you type (clearing it, or typing
 * "7" on the way to "70", changes nothing), a number in range is taken at once, and on leaving the field
 * anything else is brought into range (an empty or invalid field goes back to the last value).
 */
export function NumberInput({ value, onValue, min, max, integer, onBlur, ...rest }: Props) {
  const [text, setText] = useState(String(value));
  // A value changed from outside (a preset picked, a reset) shows; the field's own edits already do.
  useEffect(() => {
    setText((t) => (t.trim() !== "" && Number(t) === value ? t : String(value)));
  }, [value]);
  return (
    <input
      {...rest}
      type="number"
      min={min}
      max={max}
      step={rest.step ?? (integer ? 1 : "any")}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value.trim() !== "" && Number.isFinite(n) && n === clampNumber(n, { min, max, integer })) onValue(n);
      }}
      onBlur={(e) => {
        const n = Number(text);
        const next = text.trim() !== "" && Number.isFinite(n) ? clampNumber(n, { min, max, integer }) : value;
        setText(String(next));
        if (next !== value) onValue(next);
        onBlur?.(e);
      }}
    />
  );
}
