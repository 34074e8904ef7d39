import { describe, expect, it } from "vitest";
import { decodeText, imageFrom, MAX_IMAGE_BYTES, MAX_TEXT_BYTES, sniffImage, workspaceFileFrom } from "./attachments";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const bytes = (s: string) => new TextEncoder().encode(s);

describe("composer attachments", () => {
  it("reads the image type from the bytes, never from the name; SVG is refused", () => {
    expect(sniffImage(PNG)).toBe("image/png");
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImage(bytes("GIF89a..."))).toBe("image/gif");
    expect(sniffImage(bytes("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    const fake = imageFrom(bytes("not an image"), "shot.png");
    expect(fake).toEqual({
      ok: false,
      error: "shot.png is not a PNG, JPEG, GIF or WebP image, so it was not attached.",
    });
  });
  it("an image becomes a data: URL of its sniffed type; too large ones are refused with the limit", () => {
    const r = imageFrom(PNG, "paste.jpg");
    expect(r.ok && r.value).toMatchObject({
      kind: "image",
      mime: "image/png",
      filename: "paste.jpg",
      url: "data:image/png;base64,iVBORw0KGgoAAAAN",
    });
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    expect(imageFrom(big, "huge.png")).toEqual({
      ok: false,
      error: "huge.png is 5.0 MB; images up to 5.0 MB can be attached.",
    });
  });
  it("a workspace text file is attached with its path and text; binary and large files are refused", () => {
    const r = workspaceFileFrom(bytes("hello"), "src/a.ts", "/workspace");
    expect(r.ok && r.value).toMatchObject({
      kind: "text",
      mime: "text/plain",
      filename: "a.ts",
      path: "src/a.ts",
      text: "hello",
      url: "file:///workspace/src/a.ts",
    });
    expect(workspaceFileFrom(Uint8Array.from([1, 0, 2]), "bin/x", "/workspace")).toEqual({
      ok: false,
      error: "bin/x is neither text nor an image, so it was not attached.",
    });
    expect(workspaceFileFrom(new Uint8Array(MAX_TEXT_BYTES + 1).fill(97), "big.log", "/workspace").ok).toBe(false);
    expect(workspaceFileFrom(PNG, "img/logo.png", "/workspace")).toMatchObject({
      ok: true,
      value: { kind: "image", path: "img/logo.png" },
    });
  });
  it("decodes UTF-8 only", () => {
    expect(decodeText(bytes("grüße"))).toBe("grüße");
    expect(decodeText(Uint8Array.from([0xc3, 0x28]))).toBeUndefined();
  });
});
