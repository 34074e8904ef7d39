import { describe, expect, it } from "vitest";
import { workspaceTools } from "./index";

describe("workspace tool schemas", () => {
  it("exports the seven workspace tools", () => {
    expect(workspaceTools.map((t) => t.id)).toEqual(["read", "edit", "write", "bash", "list", "glob", "grep"]);
  });

  it("names what each bad argument should have been, in words", async () => {
    // The mini build has no messages until src/core/zod loads English ones: this file loads nothing else.
    const read = workspaceTools.find((t) => t.id === "read");
    const outcome = await read?.run({ filePath: 3, limit: "x" }, {} as never);
    expect(outcome?.ok).toBe(false);
    expect(outcome && !outcome.ok && outcome.error).toContain("- filePath: Invalid input: expected string, received number\n- limit: Invalid input: expected number, received string");
    const bash = await workspaceTools.find((t) => t.id === "bash")?.run({ command: "ls", description: "d", timeout: 0 }, {} as never);
    expect(bash && !bash.ok && bash.error).toContain("- timeout: Too small: expected number to be >0");
  });

  for (const tool of workspaceTools) {
    it(`${tool.id} JSON schema is stable`, () => {
      expect(tool.spec().inputSchema).toMatchSnapshot();
    });
  }
});
