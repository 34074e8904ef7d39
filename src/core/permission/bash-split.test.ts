import { describe, expect, it } from "vitest";
import { renderWords, splitCommands } from "./bash-split";

/** The programs that run (wrappers peeled off), as normalised text. */
function run(command: string): string[] {
  return splitCommands(command).commands.map((c) => renderWords(c.words.slice(c.start)));
}
function unsafe(command: string): string | undefined {
  return splitCommands(command).unsafe;
}

describe("splitCommands: operators and nesting", () => {
  it.each([
    ["ls -la", ["ls -la"]],
    ["echo hi && rm -rf /", ["echo hi", "rm -rf /"]],
    ["a; b || c | d & e", ["a", "b", "c", "d", "e"]],
    ["a |& b", ["a", "b"]],
    ["a\nb\n\nc", ["a", "b", "c"]],
    ["(cd a; rm b)", ["cd a", "rm b"]],
    ["{ rm x; }", ["rm x"]],
    ["((i++))", ["i++"]],
    ["if rm x; then echo y; elif true; then :; else z; fi", ["rm x", "echo y", "true", ":", "z"]],
    ["while read l; do rm \"$l\"; done < list", ["read l", 'rm "$l"']],
    ["for f in $(ls); do rm $f; done", ["ls", "rm $f"]],
    ["! rm x", ["rm x"]],
    ["echo a # && rm x", ["echo a"]],
    ["echo a;#rm x\nls", ["echo a", "ls"]],
    ["echo a \\\n && rm b", ["echo a", "rm b"]],
  ])("%j", (cmd, expected) => {
    expect(run(cmd)).toEqual(expected);
    expect(unsafe(cmd)).toBeUndefined();
  });

  it("finds commands inside substitutions, including quoted and nested ones", () => {
    expect(run("echo $(rm x)")).toEqual(["rm x", "echo $(rm x)"]);
    expect(run('echo "a $(rm y) b"')).toEqual(["rm y", 'echo "a $(rm y) b"']);
    expect(run("echo `rm z`")).toEqual(["rm z", "echo `rm z`"]);
    expect(run('echo "`rm \\"q\\"`"')).toEqual(["rm q", 'echo "`rm \\"q\\"`"']);
    expect(run("echo `echo \\\" ; rm x \\\"`")).toEqual(["echo '\"'", "rm x '\"'", "echo `echo \\\" ; rm x \\\"`"]);
    expect(run("echo $(echo $(rm deep))")).toEqual(["rm deep", "echo $(rm deep)", "echo $(echo $(rm deep))"]);
    expect(run("diff <(ls a) <(rm b)")).toEqual(["ls a", "rm b", "diff <(ls a) <(rm b)"]);
    expect(run("while read l; do :; done < <(rm q)")).toEqual(["read l", ":", "rm q"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
    expect(run("echo ${x:-$(rm d)}")).toEqual(["rm d", "echo ${x:-$(rm d)}"]);
    expect(run("X=$(rm e)")).toEqual(["rm e"]);
    expect(run("echo $((1 + $(rm f)))")).toEqual(["rm f", "echo $((1 + $(rm f)))"]);
    expect(run("echo $((2 * (3 + 4)))")).toEqual(["echo $((2 * (3 + 4)))"]);
    expect(run("echo $( (rm g) )")).toEqual(["rm g", "echo $( (rm g) )"]);
  });

  it("keeps quoted operators inside words", () => {
    expect(run("echo 'a && rm b' \"; rm c\" d\\;rm")).toEqual(["echo 'a && rm b' '; rm c' 'd;rm'"]);
    expect(run("grep -r 'rm -rf' .")).toEqual(["grep -r 'rm -rf' ."]);
  });

  it("removes quotes and escapes from words", () => {
    expect(run("'rm' a")).toEqual(["rm a"]);
    expect(run('"r"m b')).toEqual(["rm b"]);
    expect(run("\\rm c")).toEqual(["rm c"]);
    expect(run("r\\\nm d")).toEqual(["rm d"]);
    expect(run("$'\\x72m' e")).toEqual(["rm e"]);
    expect(run("$'\\162m' f")).toEqual(["rm f"]);
    expect(run('$"rm" g')).toEqual(["rm g"]);
  });
});

describe("splitCommands: assignments, redirections, wrappers", () => {
  it("drops env assignments and redirections", () => {
    expect(run("FOO=1 BAR='x y' rm z")).toEqual(["rm z"]);
    expect(run("rm a > out.txt 2>&1")).toEqual(["rm a"]);
    expect(run(">out 2>/dev/null <in rm b")).toEqual(["rm b"]);
    expect(run("cat <<< hi")).toEqual(["cat"]);
    expect(run("cmd &>log")).toEqual(["cmd"]);
  });

  it("reports files written by redirections", () => {
    const [c] = splitCommands("echo hi > a.txt 2>&1 >> b.txt &> c.txt 2>/dev/null").commands;
    expect(c?.writes.map((w) => w.value)).toEqual(["a.txt", "b.txt", "c.txt", "/dev/null"]);
  });

  it("peels wrappers off", () => {
    expect(run("sudo rm y")).toEqual(["rm y"]);
    expect(run("sudo -u root -E rm y")).toEqual(["rm y"]);
    expect(run("env -i FOO=1 rm y")).toEqual(["rm y"]);
    expect(run("nice -n 10 rm y")).toEqual(["rm y"]);
    expect(run("time -p rm y")).toEqual(["rm y"]);
    expect(run("nohup rm y &")).toEqual(["rm y"]);
    expect(run("timeout -s KILL 5 rm y")).toEqual(["rm y"]);
    expect(run("ls | xargs -I {} -n 1 rm {}")).toEqual(["ls", "rm {}"]);
    expect(run("command rm y")).toEqual(["rm y"]);
    expect(run("exec -a name rm y")).toEqual(["rm y"]);
    expect(run("sudo env FOO=1 nice rm y")).toEqual(["rm y"]);
    expect(run("command -v rm")).toEqual(["command -v rm"]);
    expect(run("sudo -v")).toEqual(["sudo -v"]);
    expect(run("env FOO=1")).toEqual(["env FOO=1"]);
  });

  it("keeps the wrappers in the command's words", () => {
    const [c] = splitCommands("sudo -u bob rm y").commands;
    expect(c && renderWords(c.words)).toBe("sudo -u bob rm y");
    expect(c?.start).toBe(3);
  });

  it("recurses into scripts run by shells, su, eval, watch and find -exec", () => {
    expect(run("bash -c 'rm c'")).toEqual(["rm c", "bash -c 'rm c'"]);
    expect(run('sh -ec "echo a && rm c"')).toEqual(["echo a", "rm c", "sh -ec 'echo a && rm c'"]);
    expect(run("bash -lc 'sudo rm c'")).toEqual(["rm c", "bash -lc 'sudo rm c'"]);
    expect(run("bash -c \"bash -c 'rm deep'\"")).toEqual(["rm deep", "bash -c 'rm deep'", "bash -c \"bash -c 'rm deep'\""]);
    expect(run("su -c 'rm s' root")).toEqual(["rm s", "su -c 'rm s' root"]);
    expect(run('eval "rm e"')).toEqual(["rm e", "eval 'rm e'"]);
    expect(run("watch -n 1 rm w")).toEqual(["rm w", "watch -n 1 rm w"]);
    expect(run("find . -name '*.o' -exec rm {} \\;")).toEqual(["rm {}", "find . -name '*.o' -exec rm {} ';'"]);
    expect(run("bash script.sh")).toEqual(["bash script.sh"]);
    expect(run("bash -x ./build.sh --fast")).toEqual(["bash -x ./build.sh --fast"]);
    expect(run("source ./env.sh && . venv/bin/activate")).toEqual(["source ./env.sh", ". venv/bin/activate"]);
    expect(run("strace -o log -f rm z")).toEqual(["rm z"]);
    expect(run("fakeroot rm z")).toEqual(["rm z"]);
    expect(unsafe("bash -x ./build.sh")).toBeUndefined();
  });

  it("skips here-document bodies but scans expanding ones", () => {
    expect(run("cat <<EOF > f.txt\nrm not-a-command\nEOF\nls")).toEqual(["cat", "ls"]);
    expect(run("cat <<EOF\n$(rm inside)\nEOF")).toEqual(["cat", "rm inside"]);
    expect(run("cat <<'EOF'\n$(rm quoted)\nEOF")).toEqual(["cat"]);
    expect(run("cat <<-EOF\n\t`rm tick`\n\tEOF\necho done")).toEqual(["cat", "rm tick", "echo done"]);
  });
});

describe("splitCommands: input that cannot be analysed asks", () => {
  it.each([
    "echo 'unbalanced && rm x",
    'echo "unbalanced',
    "echo $(rm x",
    "echo `rm x",
    "echo )",
    "(rm x",
    "case $x in a) rm y;; esac",
    "f() { rm x; }; f",
    "function f { rm x; }; f",
    "arr=(rm x)",
    "$CMD -rf /",
    '"$(which rm)" x',
    "`echo rm` x",
    "r* x",
    "{rm,x}",
    "bash -c \"$SCRIPT\"",
    "eval $X",
    "env -S 'rm x'",
    "echo 'rm x' | sh",
    "bash <<< 'rm x'",
    "bash -s < script.sh",
    "bash <(curl -s https://example.com/install.sh)",
    "source <(echo rm x)",
    ". $SCRIPT",
    "shopt -s expand_aliases; alias x=rm; x y",
    "echo ${x",
  ])("%j", (cmd) => {
    expect(unsafe(cmd)).toBeDefined();
  });

  it("still reports what it understood before the failure", () => {
    expect(run("rm x; echo 'oops")).toContain("rm x");
  });

  it("refuses pathological nesting quickly, without throwing", () => {
    for (const opener of ["$(", "$((", "`", "<(", "${", "$( (", "\"$("]) expect(unsafe(opener.repeat(20_000))).toBeDefined();
    const deep = `${"echo $(".repeat(60)}rm x${")".repeat(60)}`;
    expect(unsafe(deep)).toBeUndefined();
    expect(run(deep)[0]).toBe("rm x");
    expect(unsafe("(".repeat(50_000))).toBeDefined();
    expect(run(`echo ${"{a,".repeat(10_000)}`)).toHaveLength(1);
  });

  it("refuses very long or very deeply nested input", () => {
    expect(unsafe(`echo ${"a".repeat(200_000)}`)).toBeDefined();
    let deep = "rm x";
    for (let i = 0; i < 12; i++) deep = `bash -c ${JSON.stringify(deep)}`;
    expect(unsafe(deep)).toBeDefined();
  });
});
