import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { historyPath } from "./session-actions";

const FIX = "src/core/import/__fixtures__";
const file = (path: string, name: string) => new File([readFileSync(path)], name);

describe("Import file: what goes to Import history, and under which name", () => {
  it("another agent's history, by content, whatever its name kept", async () => {
    expect(await historyPath(file(`${FIX}/claude-code/session.jsonl`, "session.jsonl"))).toBe("session.jsonl");
    // Downloaded files that lost their extension get the one their content shows.
    expect(await historyPath(file(`${FIX}/claude-code/session.jsonl`, "session"))).toBe("session.jsonl");
    expect(await historyPath(file(`${FIX}/codex/rollout-2025-11-04T10-00-00-019a4e2c-1b2a-7c3d-9e8f-0a1b2c3d4e5f.jsonl`, "rollout.txt"))).toBe("rollout.txt.jsonl");
    expect(await historyPath(file(`${FIX}/gemini/session-2025-09-12T14-00-b7e1c2d3.json`, "session-download"))).toBe("session-download.json");
    expect(await historyPath(file(`${FIX}/opencode-2x-export.json`, "export"))).toBe("export.json");
    expect(await historyPath(file(`${FIX}/opencode-wal/opencode.db`, "backup"))).toBe("backup");
  });

  it("tabcode's own exports, zips and anything else go to the export import", async () => {
    expect(await historyPath(file("e2e/fixtures/opencode-export.json", "opencode-export.json"))).toBeUndefined();
    expect(await historyPath(new File([new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])], "bundle"))).toBeUndefined();
    expect(await historyPath(new File(['{"name": "my-app"}'], "package.json"))).toBeUndefined();
    expect(await historyPath(new File(["hello"], "notes.txt"))).toBeUndefined();
  });
});
