import { useEffect, useRef, useState } from "react";

/**
 * `value`, but while `active` it follows at most once every `ms` (the newest value each time; the last one
 * always arrives). For views that recompute something costly from a streaming answer: the header's size of
 * the next request does not need 20 updates a second.
 */
export function useThrottled<T>(value: T, ms: number, active: boolean): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    if (!active) {
      last.current = 0;
      setShown(value);
      return;
    }
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setShown(value);
      return;
    }
    const t = setTimeout(() => {
      last.current = Date.now();
      setShown(latest.current);
    }, wait);
    return () => clearTimeout(t);
  }, [value, ms, active]);
  return active ? shown : value;
}
