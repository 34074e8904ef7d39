/**
 * A refused change of a protected file is said in the guard's words whatever command made it: `sed -i`, `tee`,
 * `chmod` and `ln` catch the filesystem's error and used to print "No such file or directory" or "Permission
 * denied", where a `>` redirection says the file is protected. Real just-bash.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { type PathRefusal, pathPolicy } from "../../../core/permission/path-policy";
import type { Ruleset } from "../../../core/schema";
import { withRefusalWords } from "./exec-guard";
import type { LocalSandbox } from "./local-sandbox";
import { createLocalSandboxForTests } from "./testing";

const PROTECT: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }];
const RULE = 'refused — protected by your rule "protect config/**"';

let sb: LocalSandbox;
let clean: string;

beforeAll(async () => {
  sb = await createLocalSandboxForTests({ files: { "config/app.json": '{"v":1}\n', "victim.txt": "v\n" } });
  clean = await sb.snapshot();
});

async function run(command: string) {
  await sb.restore(clean);
  const paths: PathRefusal[] = [];
  const r = await sb.exec(command, { guard: { policy: pathPolicy("/workspace", [PROTECT]), pathRefused: (p) => paths.push(p) } });
  const after = await sb.fs.readText("/workspace/config/app.json");
  return { ...r, paths, after };
}

describe("a protected file's refusal reads the same from every command", () => {
  it("`>` says the file is protected (the words the others must match)", async () => {
    const r = await run("echo x > config/app.json");
    expect(r.combined).toContain(`config/app.json: truncate ${RULE}`);
  });

  it.each([
    ["sed -i s/1/2/ config/app.json", `sed: config/app.json: write ${RULE}`],
    ["sed -i.bak s/1/2/ config/app.json", `sed: config/app.json: write ${RULE}`],
    ["sed -i d config/app.json", `sed: config/app.json: truncate ${RULE}`],
    ["echo x | tee config/app.json", `tee: config/app.json: write ${RULE}`],
    ["echo x | tee -a config/app.json", `tee: config/app.json: append ${RULE}`],
    ["chmod 000 config/app.json", `chmod: config/app.json: chmod ${RULE}`],
    ["ln -sf /dev/null config/app.json", `ln: config/app.json: delete ${RULE}`],
    ["cp victim.txt config/app.json", `config/app.json: copy ${RULE}`],
    ["mv victim.txt config/app.json", `config/app.json: rename ${RULE}`],
    ["sh -c 'sed -i s/1/2/ config/app.json'", `sed: config/app.json: write ${RULE}`],
  ])("%s", async (command, words) => {
    const r = await run(command);
    expect(r.combined).toContain(words);
    expect(r.combined).not.toMatch(/No such file or directory|Permission denied/);
    // Said once, even through `sh -c`.
    expect(r.combined.split(RULE)).toHaveLength(2);
    expect(r.exitCode).not.toBe(0);
    expect(r.after).toBe('{"v":1}\n');
    expect(r.paths.length).toBeGreaterThan(0);
  });

  it("a refusal the command hid (`rm -f`) is said, and the command fails", async () => {
    const r = await run("rm -f config/app.json");
    expect(r.combined).toContain(`rm: config/app.json: delete ${RULE}`);
    expect(r.exitCode).toBe(1);
  });

  it("another file of the same name keeps its own error; only the protected one's line is replaced", async () => {
    const r = await run("chmod 600 nothere/app.json config/app.json");
    expect(r.combined).toContain("nothere/app.json': No such file");
    expect(r.combined).toContain(`chmod: config/app.json: chmod ${RULE}`);
    expect(r.combined).not.toContain("cannot access 'config/app.json': No such file");
  });

  it("a command's other errors stay its own", async () => {
    const r = await run("sed -i s/1/2/ missing.txt");
    expect(r.combined).toContain("sed: missing.txt: No such file or directory");
    expect(r.paths).toEqual([]);
  });
});

describe("withRefusalWords", () => {
  const refusal: PathRefusal = { path: "/workspace/config/app.json", message: `config/app.json: write ${RULE}` };
  it("replaces the command's generic line about that file and keeps its others", () => {
    const r = withRefusalWords("sed", { stdout: "", stderr: "sed: other.txt: bad\nsed: config/app.json: No such file or directory\n", exitCode: 4 }, [refusal]);
    expect(r).toEqual({ stdout: "", stderr: `sed: other.txt: bad\nsed: config/app.json: write ${RULE}\n`, exitCode: 4 });
  });
  it("adds the words when the command said nothing of it, and leaves a result that says them alone", () => {
    expect(withRefusalWords("rm", { stdout: "", stderr: "", exitCode: 0 }, [refusal])).toEqual({ stdout: "", stderr: `rm: config/app.json: write ${RULE}\n`, exitCode: 1 });
    const said = { stdout: "", stderr: `mv: cannot move 'a': config/app.json: write ${RULE}\n`, exitCode: 1 };
    expect(withRefusalWords("mv", said, [refusal])).toBe(said);
    const none = { stdout: "ok\n", stderr: "", exitCode: 0 };
    expect(withRefusalWords("cat", none, [])).toBe(none);
  });
});
