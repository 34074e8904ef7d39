import * as nodeZlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { constants, gunzipSync, gzipSync } from "./zlib-shim";

const text = "hello gzip ".repeat(200);

describe("zlib shim", () => {
  it("round-trips and interoperates with node:zlib", () => {
    const packed = gzipSync(new TextEncoder().encode(text), { level: constants.Z_BEST_COMPRESSION });
    expect(packed.length).toBeLessThan(text.length);
    expect(new TextDecoder().decode(nodeZlib.gunzipSync(packed))).toBe(text);
    expect(new TextDecoder().decode(gunzipSync(nodeZlib.gzipSync(text)))).toBe(text);
  });

  it("honours maxOutputLength and rejects garbage", () => {
    const packed = gzipSync(text);
    expect(() => gunzipSync(packed, { maxOutputLength: 10 })).toThrow(RangeError);
    expect(() => gunzipSync(new Uint8Array([1, 2, 3, 4]))).toThrow(/incorrect header/);
  });
});
