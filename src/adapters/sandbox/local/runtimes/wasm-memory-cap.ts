/**
 * A ceiling for WebAssembly memory in the Python Worker. Pyodide's memory
 * can grow to 4 GB, far more than a phone's tab survives; refusing to grow
 * past the cap makes the allocation fail inside the interpreter, which
 * Python reports as a MemoryError (the script ends, the page lives).
 * Memory never shrinks, so the Worker is replaced after a run that grew a lot.
 */

/** Installs the cap on every `WebAssembly.Memory`; returns what lifts it again, and the largest size seen. */
export function capMemoryGrowth(limitBytes: number, proto: WebAssembly.Memory = WebAssembly.Memory.prototype): { largest: () => number; lift: () => void } {
  const grow = proto.grow;
  let largest = 0;
  proto.grow = function (this: WebAssembly.Memory, delta: number): number {
    const now = this.buffer.byteLength;
    if (now + delta * 65_536 > limitBytes) throw new RangeError(`WebAssembly memory limit of ${limitBytes >> 20} MB reached`);
    const before = grow.call(this, delta);
    largest = Math.max(largest, this.buffer.byteLength);
    return before;
  };
  return {
    largest: () => largest,
    lift: () => {
      proto.grow = grow;
    },
  };
}
