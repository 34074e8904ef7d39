/**
 * The core modules and the module system of the QuickJS `node`, in plain
 * JavaScript evaluated after `NODE_PRELUDE`: process, path, fs (sync,
 * callback and promises), os, util, events, assert, and `require` of
 * workspace CommonJS files and JSON. Called with the host object and the run's
 * cwd, argv and env; returns `require` and the loaders the driver uses.
 */
export const NODE_CORE = String.raw`
(function (h, cwd, argv, env) {
  var G = globalThis, S = G.__tabcode_setup;
  delete G.__tabcode_setup;
  var Buffer = S.Buffer;
  function Exit(code) { this.code = code; }
  // --- process -------------------------------------------------------------
  var here = cwd;
  var listeners = {};
  var process = G.process = {
    argv: argv, argv0: "node", execArgv: [], env: env, platform: "linux", arch: "wasm32", pid: 42, ppid: 1,
    version: "v0.0.0-quickjs", versions: { quickjs: "2024-01-13", node: "0.0.0" }, release: { name: "quickjs" }, exitCode: undefined,
    cwd: function () { return here; },
    chdir: function (d) { var p = path.resolve(d); if (!fsx("stat", p).type) throw new Error("ENOENT: no such directory, chdir '" + d + "'"); here = p; },
    exit: function (c) { throw new Exit(c === undefined ? (process.exitCode || 0) : Number(c) || 0); },
    stdout: { write: function (s) { h.out(1, typeof s === "string" ? s : Buffer.from(s).toString()); return true; }, isTTY: false, columns: 80 },
    stderr: { write: function (s) { h.out(2, typeof s === "string" ? s : Buffer.from(s).toString()); return true; }, isTTY: false },
    stdin: { isTTY: false, fd: 0 },
    hrtime: Object.assign(function (p) { var t = Date.now(); var s = Math.floor(t / 1000), n = (t % 1000) * 1e6; return p ? [s - p[0], n - p[1]] : [s, n]; }, { bigint: function () { return BigInt(Date.now()) * 1000000n; } }),
    memoryUsage: function () { return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0 }; },
    uptime: function () { return 0; }, nextTick: function (fn) { var a = Array.prototype.slice.call(arguments, 1); Promise.resolve().then(function () { fn.apply(null, a); }); },
    on: function (ev, fn) { (listeners[ev] = listeners[ev] || []).push(fn); return process; }, once: function (ev, fn) { return process.on(ev, fn); },
    off: function () { return process; }, removeAllListeners: function () { return process; }, emitWarning: function (w) { h.out(2, "(node) Warning: " + w + "\n"); },
    __listeners: listeners, __Exit: Exit,
  };
  // --- path (POSIX) ----------------------------------------------------------
  function norm(p, abs) {
    var out = [];
    p.split("/").forEach(function (s) { if (!s || s === ".") return; if (s === "..") { if (out.length && out[out.length - 1] !== "..") out.pop(); else if (!abs) out.push(".."); } else out.push(s); });
    return out.join("/");
  }
  var path = {
    sep: "/", delimiter: ":",
    isAbsolute: function (p) { return p.charAt(0) === "/"; },
    normalize: function (p) { if (!p) return "."; var abs = p.charAt(0) === "/", t = p.slice(-1) === "/"; var r = norm(p, abs); return (abs ? "/" : "") + (r || (abs ? "" : ".")) + (t && r ? "/" : ""); },
    join: function () { var a = Array.prototype.filter.call(arguments, function (x) { return x; }); return a.length ? path.normalize(a.join("/")) : "."; },
    resolve: function () { var r = ""; for (var i = arguments.length - 1; i >= -1 && r.charAt(0) !== "/"; i--) { var s = i >= 0 ? arguments[i] : here; if (s) r = s + (r ? "/" + r : ""); } return "/" + norm(r, true); },
    dirname: function (p) { var r = p.replace(/\/+$/, ""); var i = r.lastIndexOf("/"); return i < 0 ? "." : i === 0 ? "/" : r.slice(0, i); },
    basename: function (p, ext) { var b = p.replace(/\/+$/, ""); b = b.slice(b.lastIndexOf("/") + 1); return ext && b.slice(-ext.length) === ext && b !== ext ? b.slice(0, -ext.length) : b; },
    extname: function (p) { var b = path.basename(p); var i = b.lastIndexOf("."); return i <= 0 ? "" : b.slice(i); },
    relative: function (a, b) { var x = path.resolve(a).split("/").filter(Boolean), y = path.resolve(b).split("/").filter(Boolean); var i = 0; while (i < x.length && i < y.length && x[i] === y[i]) i++; return x.slice(i).map(function () { return ".."; }).concat(y.slice(i)).join("/"); },
    parse: function (p) { var b = path.basename(p), e = path.extname(p); return { root: p.charAt(0) === "/" ? "/" : "", dir: path.dirname(p), base: b, ext: e, name: e ? b.slice(0, -e.length) : b }; },
    format: function (o) { return (o.dir ? o.dir + "/" : o.root || "") + (o.base || (o.name || "") + (o.ext || "")); },
    toNamespacedPath: function (p) { return p; },
  };
  path.posix = path;
  // --- fs --------------------------------------------------------------------
  function fail(e) { var err = new Error(e.message); err.code = e.code; err.errno = -2; err.syscall = e.message.split(", ")[1] ? e.message.split(", ")[1].split(" ")[0] : ""; throw err; }
  function fsx(op, p, arg) { var r = JSON.parse(h.fs(op, p, arg || "")); if (r.e) fail(r.e); return r.v === undefined ? {} : r.v; }
  function abs(p) { return path.resolve(String(p)); }
  function enc(o) { return typeof o === "string" ? o : o && o.encoding; }
  function toBytes(d, o) { if (typeof d === "string") return Buffer.from(d, enc(o) || "utf8").buffer; if (ArrayBuffer.isView(d)) return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength); return Buffer.from(String(d)).buffer; }
  function Stats(s) { this.size = s.size; this.mode = s.type === "dir" ? 16877 : 33188; this.mtimeMs = Date.now(); this.mtime = this.ctime = this.atime = this.birthtime = new Date(); this._t = s.type; }
  Stats.prototype.isFile = function () { return this._t === "file"; };
  Stats.prototype.isDirectory = function () { return this._t === "dir"; };
  Stats.prototype.isSymbolicLink = function () { return false; };
  function Dirent(name, t, dir) { this.name = name; this._t = t; this.parentPath = this.path = dir; }
  Dirent.prototype = Object.create(Stats.prototype);
  var fs = {
    constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 },
    readFileSync: function (p, o) { var r = h.read(abs(p)); if (typeof r === "string") fail(JSON.parse(r).e); var b = Buffer.from(r); var e = enc(o); return e ? b.toString(e) : b; },
    writeFileSync: function (p, d, o) { var r = h.write(abs(p), toBytes(d, o), !!(o && o.flag === "a")); if (r) fail(JSON.parse(r).e); },
    appendFileSync: function (p, d, o) { var r = h.write(abs(p), toBytes(d, o), true); if (r) fail(JSON.parse(r).e); },
    existsSync: function (p) { try { fsx("stat", abs(p)); return true; } catch (e) { return false; } },
    accessSync: function (p) { fsx("stat", abs(p)); },
    statSync: function (p, o) { try { return new Stats(fsx("stat", abs(p))); } catch (e) { if (o && o.throwIfNoEntry === false) return undefined; throw e; } },
    readdirSync: function (p, o) { var d = abs(p); var list = fsx("readdir", d); return o && o.withFileTypes ? list.map(function (e) { return new Dirent(e[0], e[1], d); }) : list.map(function (e) { return e[0]; }); },
    mkdirSync: function (p, o) { fsx("mkdir", abs(p), o && o.recursive ? "r" : ""); return o && o.recursive ? abs(p) : undefined; },
    unlinkSync: function (p) { fsx("unlink", abs(p)); },
    rmdirSync: function (p, o) { fsx("rmdir", abs(p), o && o.recursive ? "r" : ""); },
    rmSync: function (p, o) { var a = abs(p); var s; try { s = fsx("stat", a); } catch (e) { if (o && o.force) return; throw e; } if (s.type === "dir") { if (!(o && o.recursive)) fail({ code: "ERR_FS_EISDIR", message: "Path is a directory: rm returned EISDIR (is a directory) " + a }); fsx("rmdir", a, "r"); } else fsx("unlink", a); },
    renameSync: function (a, b) { fsx("rename", abs(a), abs(b)); },
    copyFileSync: function (a, b) { fs.writeFileSync(b, fs.readFileSync(a)); },
    realpathSync: function (p) { var a = abs(p); fsx("stat", a); return a; },
  };
  fs.lstatSync = fs.statSync;
  fs.promises = {};
  Object.keys(fs).forEach(function (k) {
    if (!/Sync$/.test(k)) return;
    var name = k.slice(0, -4), sync = fs[k];
    fs.promises[name] = function () { var a = arguments; return new Promise(function (ok) { ok(sync.apply(null, a)); }); };
    fs[name] = function () {
      var a = Array.prototype.slice.call(arguments), cb = typeof a[a.length - 1] === "function" ? a.pop() : function () {};
      setTimeout(function () { var r, err = null; try { r = sync.apply(null, a); } catch (e) { err = e; } if (name === "exists") cb(r); else cb(err, r); }, 0);
    };
  });
  delete fs.promises.exists;
  // --- os, util, events, assert --------------------------------------------------
  var os = { EOL: "\n", platform: function () { return "linux"; }, type: function () { return "Linux"; }, arch: function () { return "wasm32"; }, release: function () { return "0"; },
    tmpdir: function () { return "/tmp"; }, homedir: function () { return env.HOME || "/workspace"; }, hostname: function () { return "sandbox"; }, cpus: function () { return []; },
    totalmem: function () { return 268435456; }, freemem: function () { return 134217728; }, userInfo: function () { return { username: env.USER || "user", homedir: env.HOME || "/workspace" }; } };
  var util = { inspect: S.inspect, format: S.format,
    promisify: function (fn) { return function () { var a = Array.prototype.slice.call(arguments); return new Promise(function (ok, no) { fn.apply(null, a.concat([function (e, v) { if (e) no(e); else ok(v); }])); }); }; },
    isDeepStrictEqual: function (a, b) { return deepEq(a, b, true); }, types: { isPromise: function (p) { return p instanceof Promise; } },
    TextEncoder: G.TextEncoder, TextDecoder: G.TextDecoder };
  function EventEmitter() { this._ev = {}; }
  EventEmitter.prototype.on = EventEmitter.prototype.addListener = function (n, f) { (this._ev[n] = this._ev[n] || []).push(f); return this; };
  EventEmitter.prototype.once = function (n, f) { var self = this; function w() { self.off(n, w); f.apply(self, arguments); } return this.on(n, w); };
  EventEmitter.prototype.off = EventEmitter.prototype.removeListener = function (n, f) { this._ev[n] = (this._ev[n] || []).filter(function (x) { return x !== f; }); return this; };
  EventEmitter.prototype.emit = function (n) { var a = Array.prototype.slice.call(arguments, 1), l = (this._ev[n] || []).slice(); l.forEach(function (f) { f.apply(this, a); }, this); return l.length > 0; };
  EventEmitter.prototype.listeners = function (n) { return (this._ev[n] || []).slice(); };
  EventEmitter.prototype.removeAllListeners = function (n) { if (n) delete this._ev[n]; else this._ev = {}; return this; };
  EventEmitter.EventEmitter = EventEmitter;
  function deepEq(a, b, strict) {
    if (strict ? Object.is(a, b) : a == b) return true;
    if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    var ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every(function (k) { return deepEq(a[k], b[k], strict); });
  }
  function AssertionError(o) { var e = new Error(o.message); e.name = "AssertionError"; e.code = "ERR_ASSERTION"; e.actual = o.actual; e.expected = o.expected; e.operator = o.operator; return e; }
  function check(ok, msg, actual, expected, op, words) { if (ok) return; if (msg instanceof Error) throw msg; throw AssertionError({ message: msg || words, actual: actual, expected: expected, operator: op }); }
  function assert(v, m) { check(v, m, v, true, "==", "The expression evaluated to a falsy value:\n\n  assert(" + S.inspect(v, {}, 1) + ")\n"); }
  assert.ok = assert;
  assert.equal = function (a, b, m) { check(a == b, m, a, b, "==", S.inspect(a, {}, 1) + " == " + S.inspect(b, {}, 1)); };
  assert.notEqual = function (a, b, m) { check(a != b, m, a, b, "!=", S.inspect(a, {}, 1) + " != " + S.inspect(b, {}, 1)); };
  assert.strictEqual = function (a, b, m) { check(Object.is(a, b), m, a, b, "strictEqual", "Expected values to be strictly equal:\n\n" + S.inspect(a, {}, 1) + " !== " + S.inspect(b, {}, 1) + "\n"); };
  assert.notStrictEqual = function (a, b, m) { check(!Object.is(a, b), m, a, b, "notStrictEqual", 'Expected "actual" to be strictly unequal to: ' + S.inspect(b, {}, 1)); };
  assert.deepEqual = function (a, b, m) { check(deepEq(a, b, false), m, a, b, "deepEqual", "Expected values to be loosely deep-equal:\n\n" + S.inspect(a, {}, 1) + "\n\nshould loosely deep-equal\n\n" + S.inspect(b, {}, 1)); };
  assert.deepStrictEqual = function (a, b, m) { check(deepEq(a, b, true), m, a, b, "deepStrictEqual", "Expected values to be strictly deep-equal:\n" + S.inspect(a, {}, 1) + "\n\nshould equal\n\n" + S.inspect(b, {}, 1)); };
  assert.notDeepStrictEqual = function (a, b, m) { check(!deepEq(a, b, true), m, a, b, "notDeepStrictEqual", "Expected \"actual\" not to be strictly deep-equal to: " + S.inspect(b, {}, 1)); };
  assert.throws = function (fn, exp, m) { try { fn(); } catch (e) { if (typeof exp === "function" && exp.prototype !== undefined && !(e instanceof exp)) throw e; if (exp instanceof RegExp) check(exp.test(String(e && e.message)), m, e, exp, "throws", "The error message does not match " + exp); return; } check(false, typeof exp === "string" ? exp : m, undefined, exp, "throws", "Missing expected exception."); };
  assert.rejects = function (p, exp, m) { return Promise.resolve(typeof p === "function" ? p() : p).then(function () { check(false, m, undefined, exp, "rejects", "Missing expected rejection."); }, function () {}); };
  assert.match = function (s, re, m) { check(re.test(s), m, s, re, "match", "The input did not match the regular expression " + re + ". Input:\n\n" + S.inspect(s, {}, 1) + "\n"); };
  assert.fail = function (m) { check(false, m, undefined, undefined, "fail", "Failed"); };
  assert.AssertionError = AssertionError;
  assert.strict = assert;
  // --- modules -------------------------------------------------------------------
  var core = { fs: fs, "fs/promises": fs.promises, path: path, "path/posix": path, os: os, util: util, events: EventEmitter, assert: assert, "assert/strict": assert, buffer: { Buffer: Buffer }, process: process, timers: { setTimeout: setTimeout, setInterval: setInterval, clearTimeout: clearTimeout, clearInterval: clearInterval, setImmediate: setImmediate } };
  var cache = {};
  function notFound(req, from) {
    var bare = !/^[./]/.test(req);
    var e = new Error("Cannot find module '" + req + "'\nRequire stack:\n- " + from + (bare ? "\nnpm packages are not installed in the local sandbox (node here is QuickJS with Node's core modules only); the WebContainer backend (Settings → Sandbox) runs full Node.js and npm." : ""));
    e.code = "MODULE_NOT_FOUND";
    return e;
  }
  function isFile(p) { try { return fsx("stat", p).type === "file"; } catch (e) { return false; } }
  function resolveFile(req, dir, from) {
    var name = req.replace(/^node:/, "");
    if (core[name]) return "node:" + name;
    if (S.missing[name]) throw S.missingError("The '" + name + "' module");
    if (!/^[./]/.test(req)) throw notFound(req, from);
    var base = path.resolve(dir, req);
    var tries = [base, base + ".js", base + ".cjs", base + ".mjs", base + ".json", base + "/index.js", base + "/index.json"];
    for (var i = 0; i < tries.length; i++) if (isFile(tries[i])) return tries[i];
    try { var pkg = JSON.parse(fs.readFileSync(base + "/package.json", "utf8")); if (pkg.main && isFile(path.resolve(base, pkg.main))) return path.resolve(base, pkg.main); } catch (e) {}
    throw notFound(req, from);
  }
  function load(file) {
    if (file.indexOf("node:") === 0) return core[file.slice(5)];
    if (cache[file]) return cache[file].exports;
    var module = { id: file, filename: file, loaded: false, exports: {}, children: [], paths: [] };
    cache[file] = module;
    var src = fs.readFileSync(file, "utf8");
    if (/\.json$/.test(file)) { try { module.exports = JSON.parse(src); } catch (e) { throw new SyntaxError(file + ": " + e.message); } return module.exports; }
    if (/\.mjs$/.test(file)) { var err = new Error("require() of ES Module " + file + " is not supported here; use import"); err.code = "ERR_REQUIRE_ESM"; throw err; }
    var fn = h.compile("(function (exports, require, module, __filename, __dirname) {" + src.replace(/^#!.*/, "") + "\n})", file);
    fn.call(module.exports, module.exports, makeRequire(file), module, file, path.dirname(file));
    module.loaded = true;
    return module.exports;
  }
  function makeRequire(from) {
    var r = function (req) { return load(resolveFile(String(req), path.dirname(from), from)); };
    r.resolve = function (req) { return resolveFile(String(req), path.dirname(from), from).replace(/^node:/, ""); };
    r.cache = cache;
    return r;
  }
  G.require = makeRequire(path.join(here, "[eval]"));
  return { load: load, resolve: function (req, from) { return resolveFile(req, path.dirname(from), from); }, makeRequire: makeRequire, process: process, Exit: Exit, core: core };
})
`;
