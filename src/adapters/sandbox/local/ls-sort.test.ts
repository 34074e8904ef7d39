/**
 * `ls -t` lists newest first and `ls -S` largest first (ties by name, `-r` reversing all of it), as GNU's ls does:
 * just-bash listed by name under -t, and under -S by the size of a link's target. Each directory's rows are
 * sorted on their own (several operands, -R), operands listed as rows among themselves, `.`/`..` like any entry.
 * Real just-bash.
 */
import { describe, expect, it } from "vitest";
import type { LocalSandbox } from "./local-sandbox";
import { longListing } from "./ls-long";
import { createLocalSandboxForTests } from "./testing";

const FILES = {
  "a.txt": "aaaaaaaa\n",
  "b.txt": "bb\n",
  "c.txt": "c\n",
  "d/x": "x\n",
  "d/y": "yyyyyy\n",
  "e/z": "z\n",
};
// Names and times in different orders: b newest of the files, then c, then a; e the newest directory, d the oldest.
const SETUP = [
  "touch -d '2021-01-01 00:00' a.txt",
  "touch -d '2023-01-01 00:00' b.txt",
  "touch -d '2022-01-01 00:00' c.txt",
  "touch -d '2020-01-01 00:00' d/x",
  "touch -d '2024-01-01 00:00' d/y",
  "touch -d '2020-06-01 00:00' e/z",
  "touch -d '2019-01-01 00:00' d",
  "touch -d '2025-01-01 00:00' e",
].join(" && ");

async function sandbox(): Promise<LocalSandbox> {
  const sb = await createLocalSandboxForTests({ files: FILES });
  expect((await sb.exec(SETUP)).exitCode).toBe(0);
  return sb;
}

/** The names of a listing's rows, in order (long rows: the name after the time, a link's target dropped). */
function names(out: string): string[] {
  return out
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("total "))
    .map((l) => /^[-dl]\S{9} 1 user user +\S+ \w{3} [ \d]\d (?: \d{4}|\d\d:\d\d) (.+?)(?: -> .*)?$/.exec(l)?.[1] ?? l);
}

describe("ls -t", () => {
  it("lists newest first, -r oldest first, in the long, one-per-line and plain forms", async () => {
    const sb = await sandbox();
    const newest = ["e", "b.txt", "c.txt", "a.txt", "d"];
    expect(names((await sb.exec("ls -t")).stdout)).toEqual(newest);
    expect(names((await sb.exec("ls -1t")).stdout)).toEqual(newest);
    expect(names((await sb.exec("ls -lt")).stdout)).toEqual(["e/", "b.txt", "c.txt", "a.txt", "d/"]);
    expect(names((await sb.exec("ls -ltr")).stdout)).toEqual(["d/", "a.txt", "c.txt", "b.txt", "e/"]);
    expect(names((await sb.exec("ls -tr")).stdout)).toEqual([...newest].reverse());
    expect(names((await sb.exec("ls -t -F")).stdout)).toEqual(["e/", "b.txt", "c.txt", "a.txt", "d/"]);
    // The long rows keep their own modes and times while they move.
    expect((await sb.exec("chmod 600 b.txt && ls -lt")).stdout).toMatch(
      /^total 5\ndrwxr-xr-x 1 user user +0 Jan {2}1 {2}2025 e\/\n-rw------- 1 user user +3 Jan {2}1 {2}2023 b\.txt\n/,
    );
  });

  it("ties by name, and -r reverses the names too", async () => {
    const sb = await sandbox();
    await sb.exec("touch -d '2022-01-01 00:00' a.txt b.txt");
    expect(names((await sb.exec("ls -t *.txt")).stdout)).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(names((await sb.exec("ls -1t")).stdout)).toEqual(["e", "a.txt", "b.txt", "c.txt", "d"]);
    expect(names((await sb.exec("ls -1tr")).stdout)).toEqual(["d", "c.txt", "b.txt", "a.txt", "e"]);
  });

  it("sorts each directory's rows on their own: several operands, -R, -d, and . and .. under -a", async () => {
    const sb = await sandbox();
    expect((await sb.exec("ls -t d e")).stdout).toBe("d:\ny\nx\n\ne:\nz\n");
    expect((await sb.exec("ls -t c.txt d")).stdout).toBe("c.txt\n\nd:\ny\nx\n");
    // Operands listed as rows are sorted among themselves, in the places ls gave them.
    expect((await sb.exec("ls -dt a.txt b.txt d")).stdout).toBe("b.txt\n\na.txt\n\nd\n");
    expect(names((await sb.exec("ls -ldtr a.txt b.txt d e")).stdout)).toEqual(["d/", "a.txt", "b.txt", "e/"]);
    // `.` is d (2019), `..` the working directory (2018): among d's entries like any other.
    await sb.exec("touch -d '2018-01-01 00:00' .");
    expect(names((await sb.exec("ls -at d")).stdout)).toEqual(["y", "x", ".", ".."]);
    expect(names((await sb.exec("ls -lat d")).stdout)).toEqual(["y", "x", ".", ".."]);
    expect(names((await sb.exec("ls -latr d")).stdout)).toEqual(["..", ".", "x", "y"]);
  });
});

describe("ls -R -t", () => {
  it("lists each directory's subdirectories in the order of its rows, each with its own subdirectories after it", async () => {
    const sb = await createLocalSandboxForTests({ files: { ...FILES, "d/f/w": "w\n", "d/g/v": "v\n" } });
    await sb.exec("touch -d '2021-01-01 00:00' d/f && touch -d '2022-01-01 00:00' d/g");
    expect((await sb.exec(SETUP)).exitCode).toBe(0);
    const headers = (out: string) => out.split("\n").filter((l) => l.endsWith(":"));
    expect(names((await sb.exec("ls -R -t")).stdout)).toEqual([
      ".:",
      "e",
      "b.txt",
      "c.txt",
      "a.txt",
      "d",
      "./e:",
      "z",
      "./d:",
      "y",
      "g",
      "f",
      "x",
      "./d/g:",
      "v",
      "./d/f:",
      "w",
    ]);
    expect(headers((await sb.exec("ls -lRt")).stdout)).toEqual([".:", "./e:", "./d:", "./d/g:", "./d/f:"]);
    expect(headers((await sb.exec("ls -lRtr")).stdout)).toEqual([".:", "./d:", "./d/f:", "./d/g:", "./e:"]);
    expect(headers((await sb.exec("ls -Rt d")).stdout)).toEqual(["d:", "d/g:", "d/f:"]);
    // Sections are blank-line separated as before, the output whole.
    expect((await sb.exec("ls -Rt e d/g")).stdout).toBe("e:\nz\n\nd/g:\nv\n");
  });
});

describe("ls -S", () => {
  it("lists largest first by each entry's own size (a link's is its target's length), ties by name, -r reversed", async () => {
    const sb = await createLocalSandboxForTests({
      files: {
        "big.bin": "x".repeat(100),
        "mid.txt": "x".repeat(50),
        "z.txt": "1234",
        "m.txt": "1234",
        "a.txt": "12",
      },
    });
    // The link's own size is 7 (`big.bin`), not the 100 bytes it points to: it comes after the 50-byte file.
    await sb.exec("ln -s big.bin ln");
    expect(names((await sb.exec("ls -S")).stdout)).toEqual(["big.bin", "mid.txt", "ln", "m.txt", "z.txt", "a.txt"]);
    expect(names((await sb.exec("ls -1S")).stdout)).toEqual(["big.bin", "mid.txt", "ln", "m.txt", "z.txt", "a.txt"]);
    expect(names((await sb.exec("ls -lS")).stdout)).toEqual(["big.bin", "mid.txt", "ln", "m.txt", "z.txt", "a.txt"]);
    expect(names((await sb.exec("ls -lSr")).stdout)).toEqual(["a.txt", "z.txt", "m.txt", "ln", "mid.txt", "big.bin"]);
    // The later of -t and -S decides, as in GNU's ls.
    await sb.exec("touch -d '2020-01-01 00:00' big.bin mid.txt m.txt z.txt && touch -d '2021-01-01 00:00' a.txt");
    expect(names((await sb.exec("ls -St")).stdout)).toEqual(["ln", "a.txt", "big.bin", "m.txt", "mid.txt", "z.txt"]);
    expect(names((await sb.exec("ls -tS")).stdout)).toEqual(["big.bin", "mid.txt", "ln", "m.txt", "z.txt", "a.txt"]);
    expect((await sb.exec("ls -lS")).stdout).toMatch(/\nlrwxrwxrwx 1 user user +7 .* ln -> big\.bin\n/);
  });
});

describe("rows the sort cannot place", () => {
  it("keep their group in the order ls wrote it", async () => {
    const { InMemoryFs } = await import("just-bash");
    const fs = new InMemoryFs();
    await fs.mkdir("/w", { recursive: true });
    await fs.writeFile("/w/old", "1");
    await fs.writeFile("/w/new", "1");
    await fs.utimes("/w/old", new Date(2020, 0, 1), new Date(2020, 0, 1));
    const run = (stdout: string) => longListing(["-t"], { fs, cwd: "/w" }, { stdout, stderr: "", exitCode: 0 });
    expect((await run("old\ngone\nnew\n")).stdout).toBe("old\ngone\nnew\n");
    // The control: the same rows, all found, are sorted.
    expect((await run("old\nnew\n")).stdout).toBe("new\nold\n");
  });
});
