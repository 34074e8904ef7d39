import { describe, expect, it } from "vitest";
import { linkPieces } from "./user-text";

describe("links back into tabcode in a user's text", () => {
  it("shows the words of this app's own links; everything else stays text as typed", () => {
    const text = "Continuing from [“Parser work”](#/s/ses_1/m/msg_2).\n- [Fix it](#/s/ses_1/m/msg_0)\n[x](https://example.com) and [y](javascript:alert(1)) **bold**";
    expect(linkPieces(text)).toEqual([
      { text: "Continuing from " },
      { text: "“Parser work”", href: "#/s/ses_1/m/msg_2" },
      { text: ".\n- " },
      { text: "Fix it", href: "#/s/ses_1/m/msg_0" },
      { text: "\n[x](https://example.com) and [y](javascript:alert(1)) **bold**" },
    ]);
    expect(linkPieces("plain")).toEqual([{ text: "plain" }]);
    expect(linkPieces("")).toEqual([{ text: "" }]);
  });
});
