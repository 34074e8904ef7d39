import { describe, expect, it } from "vitest";
import { workspaceTools } from "./index";

describe("workspace tool schemas", () => {
  it("exports the seven workspace tools", () => {
    expect(workspaceTools.map((t) => t.id)).toEqual(["read", "edit", "write", "bash", "list", "glob", "grep"]);
  });

  for (const tool of workspaceTools) {
    it(`${tool.id} JSON schema is stable`, () => {
      expect(tool.spec().inputSchema).toMatchSnapshot();
    });
  }
});
