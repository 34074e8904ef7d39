/**
 * just-bash edits files as text and writes them back as UTF-8: `sed -i` or `sort -o` of a Latin-1 file would
 * replace its other bytes (é, 0xE9, became EF BF BD). Such a write is refused, the file keeps its bytes, and the
 * command says why and fails. Real just-bash, real bytes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { type PathRefusal, pathPolicy } from "../../../core/permission/path-policy";
import type { LocalSandbox } from "./local-sandbox";
import { createLocalSandboxForTests } from "./testing";
import { MemoryWorkspaceStore } from "./workspace-store";

/** "café\n" in Latin-1. */
const LATIN1 = [0x63, 0x61, 0x66, 0xe9, 0x0a];
const WORDS = "l1.txt: not UTF-8 text, left unchanged (writing it back as text would replace its other bytes)";

let sb: LocalSandbox;
let store: MemoryWorkspaceStore;
let clean: string;

beforeAll(async () => {
  store = new MemoryWorkspaceStore();
  sb = await createLocalSandboxForTests({ store, files: { "l1.txt": new Uint8Array(LATIN1), "u.txt": "café \uFFFD\n" } });
  clean = await sb.snapshot();
});

const bytes = async (path: string) => [...(await sb.fs.readFile(`/workspace/${path}`))];

async function run(command: string) {
  await sb.restore(clean);
  const paths: PathRefusal[] = [];
  const r = await sb.exec(command, { guard: { policy: pathPolicy("/workspace", [DEFAULT_RULES]), pathRefused: (p) => paths.push(p) } });
  return { ...r, paths };
}

describe("in-place edits of a file that is not UTF-8", () => {
  it.each([
    ["sed -i s/c/C/ l1.txt", `sed: ${WORDS}`],
    ["sed -i.bak s/c/C/ l1.txt", `sed: ${WORDS}`],
    ["sort -o l1.txt l1.txt", `sort: ${WORDS}`],
    ["sh -c 'sed -i s/c/C/ l1.txt'", `sed: ${WORDS}`],
    ["echo l1.txt | xargs sed -i s/c/C/", `sed: ${WORDS}`],
    ["find . -name l1.txt -exec sed -i s/c/C/ {} ';'", `sed: ${WORDS}`],
  ])("%s is refused and leaves the bytes", async (command, words) => {
    const r = await run(command);
    expect(r.combined).toBe(`${words}\n`);
    expect(r.exitCode).not.toBe(0);
    expect(await bytes("l1.txt")).toEqual(LATIN1);
    // Not a permission matter: nothing goes to the permissions log.
    expect(r.paths).toEqual([]);
  });

  it("the stored workspace keeps the bytes too", async () => {
    await run("sed -i s/c/C/ l1.txt");
    const again = await createLocalSandboxForTests({ store });
    expect([...(await again.fs.readFile("/workspace/l1.txt"))]).toEqual(LATIN1);
  });

  it("a UTF-8 file is edited as before, even one holding U+FFFD, and beside a refused one", async () => {
    const r = await run("sed -i s/c/C/ u.txt l1.txt");
    expect(r.combined).toBe(`sed: ${WORDS}\n`);
    expect(await sb.fs.readText("/workspace/u.txt")).toBe("Café \uFFFD\n");
    expect(await bytes("l1.txt")).toEqual(LATIN1);
  });

  it("another command of the line may write the file anew, and byte commands copy it whole", async () => {
    const r = await run("grep -c caf l1.txt; cat l1.txt > copy.txt; cp l1.txt cp.txt; printf 'new\\n' > l1.txt");
    expect(r).toMatchObject({ combined: "1\n", exitCode: 0 });
    expect(await bytes("copy.txt")).toEqual(LATIN1);
    expect(await bytes("cp.txt")).toEqual(LATIN1);
    expect(await sb.fs.readText("/workspace/l1.txt")).toBe("new\n");
  });

  it("outside the workspace too, named as it was typed", async () => {
    const r = await run("cd /tmp && cp /workspace/l1.txt . && sed -i s/c/C/ l1.txt");
    expect(r.combined).toBe("sed: /tmp/l1.txt: not UTF-8 text, left unchanged (writing it back as text would replace its other bytes)\n");
    expect([...(await sb.fs.readFile("/tmp/l1.txt"))]).toEqual(LATIN1);
  });
});
