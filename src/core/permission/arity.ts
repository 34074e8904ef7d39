/**
 * Bash permission patterns (spec §6.4). `patterns` hold the normalised text of
 * every simple command a line would run; `always` holds what an "always"
 * answer stores: the command's "human" prefix plus ` *`, where the prefix
 * length comes from the arity table below (the longest matching command
 * prefix wins; flags never count toward it, default arity 1).
 */
import { basename } from "../sandbox-path";
import { programName, renderWord, type SimpleCommand, splitCommands, type Word } from "./bash-split";

/** How many non-flag tokens name the command, keyed by its leading tokens. */
export const ARITY: Readonly<Record<string, number>> = {
  // arity 1 (also the default)
  cat: 1, cd: 1, ls: 1, rm: 1, grep: 1, sudo: 1, echo: 1, cp: 1, mv: 1, mkdir: 1, touch: 1, chmod: 1, chown: 1,
  find: 1, head: 1, tail: 1, sed: 1, awk: 1, curl: 1, wget: 1, tar: 1, node: 1, rg: 1, wc: 1, sort: 1,
  // arity 2
  git: 2, npm: 2, bun: 2, cargo: 2, docker: 2, kubectl: 2, make: 2, pip: 2, pip3: 2, python: 2, python3: 2, go: 2,
  yarn: 2, pnpm: 2, terraform: 2, deno: 2, npx: 2, bunx: 2, brew: 2, apt: 2, "apt-get": 2, dnf: 2, yum: 2, pacman: 2,
  systemctl: 2, poetry: 2, uv: 2, rustup: 2, dotnet: 2, mvn: 2, gradle: 2, helm: 2, composer: 2, gem: 2, bundle: 2,
  podman: 2, vercel: 2, wrangler: 2, firebase: 2, flutter: 2, swift: 2, mix: 2, stack: 2, cabal: 2,
  // arity 3
  "npm run": 3, "npm exec": 3, "bun run": 3, "bun x": 3, "yarn run": 3, "pnpm run": 3, "pnpm exec": 3, "pnpm dlx": 3,
  "docker compose": 3, "docker container": 3, "docker image": 3, "docker network": 3, "docker volume": 3,
  "git config": 3, "git remote": 3, "git stash": 3, "git submodule": 3, "git worktree": 3, "git bisect": 3,
  gh: 3, aws: 3, gcloud: 3, az: 3, "kubectl rollout": 3, "kubectl config": 3, "uv run": 3,
  "poetry run": 3, "python -m": 3, "python3 -m": 3, "go mod": 3, "go tool": 3, "deno task": 3, "systemctl --user": 3,
  // more, covering the examples OpenCode publishes with its own table
  bazel: 2, cdk: 2, cf: 2, cmake: 2, consul: 2, crictl: 2, eksctl: 2, flyctl: 2, heroku: 2, hugo: 2, ip: 2, kind: 2,
  kustomize: 2, mc: 2, minikube: 2, mongosh: 2, mysql: 2, ng: 2, nvm: 2, nx: 2, openssl: 2, pipenv: 2, psql: 2,
  pulumi: 2, pyenv: 2, rake: 2, rbenv: 2, "redis-cli": 2, serverless: 2, skaffold: 2, sls: 2, sst: 2, tmux: 2,
  turbo: 2, ufw: 2, vault: 2, volta: 2, wp: 2,
  "cargo add": 3, "cargo run": 3, "consul kv": 3, doctl: 3, "docker builder": 3, "eksctl create": 3, "ip addr": 3,
  "ip link": 3, "ip netns": 3, "ip route": 3, "kind create": 3, "kubectl kustomize": 3, "mc admin": 3, "npm init": 3,
  "npm view": 3, "openssl req": 3, "openssl x509": 3, "podman container": 3, "podman image": 3, "pulumi stack": 3,
  sfdx: 3, "terraform workspace": 3, "vault auth": 3, "vault kv": 3, "yarn dlx": 3,
};

function isFlag(token: string): boolean {
  return token.startsWith("-") && token !== "-";
}

/**
 * The "human command" prefix of a command's tokens: as many non-flag tokens as
 * the arity table says, with any flags in between kept so that `prefix + " *"`
 * matches the command it came from (`npm run dev --port 3` → `npm run dev`,
 * `git checkout main` → `git checkout`, `ls -la` → `ls`).
 */
export function prefix(tokens: string[]): string {
  if (tokens.length === 0) return "";
  const operands: number[] = [];
  tokens.forEach((t, i) => {
    if (i === 0 || !isFlag(t)) operands.push(i);
  });
  const key = (n: number) => [programName(tokens[0] ?? ""), ...operands.slice(1, n).map((i) => tokens[i])].join(" ");
  let arity = 1;
  for (let n = Math.min(operands.length, 3); n >= 1; n--) {
    const found = ARITY[key(n)];
    if (found !== undefined) {
      arity = found;
      break;
    }
  }
  // Some keys name a flag as their second token (`python -m`): match those too.
  const withFlag = tokens.length > 1 ? ARITY[`${programName(tokens[0] ?? "")} ${tokens[1]}`] : undefined;
  if (withFlag !== undefined && isFlag(tokens[1] ?? "")) return tokens.slice(0, Math.min(tokens.length, withFlag)).join(" ");
  const last = operands[Math.min(arity, operands.length) - 1] ?? 0;
  return tokens.slice(0, last + 1).join(" ");
}

/** What the bash tool asks for. */
export interface BashPatterns {
  /** Normalised text of every simple command (and every file a redirection writes, as `> path`). */
  patterns: string[];
  /** Patterns stored by an "always" answer; empty when `mustAsk` is set. */
  always: string[];
  /** Set when the line cannot be analysed safely: the user must be asked even if rules allow it. */
  mustAsk?: string;
}

const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

function add(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

function commandPatterns(c: SimpleCommand, patterns: string[], always: string[]): void {
  const { words, start } = c;
  if (words.length) {
    const wrappers = words.slice(0, start).map(renderWord);
    const inner = words.slice(start);
    const variants: Word[][] = [inner];
    const name = inner[0];
    if (name && !name.dynamic && name.value.includes("/") && basename(name.value) !== "") {
      const bare = basename(name.value);
      variants.push([{ raw: bare, value: bare, dynamic: false, glob: false }, ...inner.slice(1)]);
    }
    for (const v of variants) {
      const tokens = v.map(renderWord);
      if (wrappers.length) add(patterns, [...wrappers, ...tokens].join(" "));
      add(patterns, tokens.join(" "));
      const p = prefix(tokens);
      if (wrappers.length) add(always, `${[...wrappers, p].join(" ")} *`);
      add(always, `${p} *`);
    }
  }
  for (const w of c.writes) {
    if (!w.dynamic && HARMLESS_TARGETS.has(w.value)) continue;
    const p = `> ${renderWord(w)}`;
    add(patterns, p);
    add(always, p);
  }
}

/** Permission patterns for a bash command line (spec §6.4), with nested commands, wrappers and writes. */
export function bashPatterns(command: string): BashPatterns {
  const split = splitCommands(command);
  const patterns: string[] = [];
  const always: string[] = [];
  for (const c of split.commands) commandPatterns(c, patterns, always);
  const whole = command.trim().replace(/\s+/g, " ");
  if (split.unsafe) {
    add(patterns, whole);
    return { patterns, always: [], mustAsk: split.unsafe };
  }
  if (patterns.length === 0) patterns.push(whole);
  return { patterns, always };
}
