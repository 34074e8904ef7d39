/**
 * The Node.js surface a script gets inside QuickJS, written in plain
 * JavaScript and evaluated before it: console, process, Buffer, timers (a
 * virtual clock: the loop runs due timers at once), require/module, and the
 * core modules fs, fs/promises, path, os, util, events, assert. Host calls go
 * through the `__h` object (removed from the global scope here). Modules it
 * lacks fail with a sentence naming what is missing.
 */
export const MISSING_MODULES = [
  "child_process", "http", "https", "http2", "net", "tls", "dgram", "dns", "cluster", "worker_threads",
  "inspector", "vm", "zlib", "crypto", "stream", "readline", "url", "v8", "perf_hooks", "string_decoder", "module",
];

export const NODE_PRELUDE = String.raw`
(function (h, missingList) {
  var G = globalThis;
  delete G.__h;
  var missing = {};
  missingList.forEach(function (m) { missing[m] = true; });
  var FULL = " The local sandbox runs scripts in QuickJS with Node's fs, path, os, util, events and assert; the WebContainer backend (Settings → Sandbox) runs full Node.js.";
  function missingError(what) { var e = new Error(what + " is not available in the local sandbox's node." + FULL); e.code = "ERR_TABCODE_MISSING"; return e; }

  // --- Buffer, TextEncoder/TextDecoder ---------------------------------
  function Buffer() { throw new TypeError("use Buffer.from / Buffer.alloc"); }
  function wrap(u8) { Object.setPrototypeOf(u8, Buffer.prototype); return u8; }
  Buffer.prototype = Object.create(Uint8Array.prototype);
  Buffer.prototype.constructor = Buffer;
  var HEX = "0123456789abcdef";
  var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  Buffer.prototype.toString = function (enc, start, end) {
    var b = this.subarray(start || 0, end === undefined ? this.length : end);
    enc = (enc || "utf8").toLowerCase();
    if (enc === "hex") { var s = ""; for (var i = 0; i < b.length; i++) s += HEX[b[i] >> 4] + HEX[b[i] & 15]; return s; }
    if (enc === "base64") {
      var o = "";
      for (var j = 0; j < b.length; j += 3) {
        var n = (b[j] << 16) | ((b[j + 1] || 0) << 8) | (b[j + 2] || 0);
        o += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (j + 1 < b.length ? B64[(n >> 6) & 63] : "=") + (j + 2 < b.length ? B64[n & 63] : "=");
      }
      return o;
    }
    if (enc === "latin1" || enc === "binary" || enc === "ascii") { var l = ""; for (var k = 0; k < b.length; k++) l += String.fromCharCode(b[k]); return l; }
    return h.utf8(b.slice().buffer);
  };
  Buffer.prototype.toJSON = function () { return { type: "Buffer", data: Array.prototype.slice.call(this) }; };
  Buffer.prototype.equals = function (o) { if (o.length !== this.length) return false; for (var i = 0; i < o.length; i++) if (o[i] !== this[i]) return false; return true; };
  Buffer.prototype.slice = Buffer.prototype.subarray = function (s, e) { return wrap(Uint8Array.prototype.subarray.call(this, s, e)); };
  Buffer.from = function (v, enc) {
    if (typeof v === "string") {
      enc = (enc || "utf8").toLowerCase();
      if (enc === "hex") { var a = new Uint8Array(v.length >> 1); for (var i = 0; i < a.length; i++) a[i] = parseInt(v.substr(i * 2, 2), 16); return wrap(a); }
      if (enc === "base64") {
        var clean = v.replace(/[^A-Za-z0-9+/]/g, ""), out = [];
        for (var j = 0; j < clean.length; j += 4) {
          var n = (B64.indexOf(clean[j]) << 18) | (B64.indexOf(clean[j + 1]) << 12) | ((B64.indexOf(clean[j + 2]) & 63) << 6) | (B64.indexOf(clean[j + 3]) & 63);
          out.push((n >> 16) & 255); if (j + 2 < clean.length) out.push((n >> 8) & 255); if (j + 3 < clean.length) out.push(n & 255);
        }
        return wrap(new Uint8Array(out));
      }
      if (enc === "latin1" || enc === "binary" || enc === "ascii") { var l = new Uint8Array(v.length); for (var k = 0; k < v.length; k++) l[k] = v.charCodeAt(k) & 255; return wrap(l); }
      return wrap(new Uint8Array(h.bytes(v)));
    }
    if (v instanceof ArrayBuffer) return wrap(new Uint8Array(v));
    return wrap(new Uint8Array(v));
  };
  Buffer.alloc = function (n, fill) { var b = wrap(new Uint8Array(n)); if (fill) b.fill(typeof fill === "number" ? fill : fill.charCodeAt(0)); return b; };
  Buffer.isBuffer = function (b) { return b instanceof Buffer; };
  Buffer.byteLength = function (s) { return typeof s === "string" ? h.bytes(s).byteLength : s.byteLength; };
  Buffer.concat = function (list) {
    var len = 0; list.forEach(function (b) { len += b.length; });
    var out = new Uint8Array(len), at = 0;
    list.forEach(function (b) { out.set(b, at); at += b.length; });
    return wrap(out);
  };
  G.Buffer = Buffer;
  G.TextEncoder = function TextEncoder() {};
  G.TextEncoder.prototype.encode = function (s) { return new Uint8Array(h.bytes(String(s === undefined ? "" : s))); };
  G.TextDecoder = function TextDecoder() {};
  G.TextDecoder.prototype.decode = function (b) { return b ? h.utf8((b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)).slice().buffer) : ""; };

  // --- util.inspect / format ------------------------------------------
  function inspect(v, opts, depth, seen) {
    depth = depth || 0; seen = seen || [];
    var max = opts && opts.depth !== undefined ? opts.depth : 2;
    if (v === null) return "null";
    var t = typeof v;
    if (t === "string") return depth ? "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n") + "'" : v;
    if (t === "number") return Object.is(v, -0) ? "-0" : String(v);
    if (t === "bigint") return v + "n";
    if (t === "undefined" || t === "boolean" || t === "symbol") return String(v);
    if (t === "function") return "[Function: " + (v.name || "(anonymous)") + "]";
    if (v instanceof Error) return v.stack ? v.name + ": " + v.message + "\n" + v.stack.replace(/\n$/, "") : String(v);
    if (seen.indexOf(v) >= 0) return "[Circular *1]";
    if (v instanceof Date) return v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (depth > max) return Array.isArray(v) ? "[Array]" : "[Object]";
    seen = seen.concat([v]);
    var parts, open, close;
    if (v instanceof Buffer) return "<Buffer " + Array.prototype.slice.call(v, 0, 50).map(function (b) { return HEX[b >> 4] + HEX[b & 15]; }).join(" ") + (v.length > 50 ? " ... " + (v.length - 50) + " more bytes" : "") + ">";
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      parts = Array.prototype.slice.call(v, 0, 100).map(function (x) { return inspect(x, opts, depth + 1, seen); });
      if (v.length > 100) parts.push("... " + (v.length - 100) + " more items");
      open = (Array.isArray(v) ? "" : v.constructor.name + "(" + v.length + ") ") + "["; close = "]";
    } else if (v instanceof Map) {
      parts = []; v.forEach(function (val, k) { parts.push(inspect(k, opts, depth + 1, seen) + " => " + inspect(val, opts, depth + 1, seen)); });
      open = "Map(" + v.size + ") {"; close = "}";
    } else if (v instanceof Set) {
      parts = []; v.forEach(function (val) { parts.push(inspect(val, opts, depth + 1, seen)); });
      open = "Set(" + v.size + ") {"; close = "}";
    } else if (typeof v.then === "function") { return "Promise { <pending> }"; }
    else {
      parts = Object.keys(v).map(function (k) { return (/^[A-Za-z_$][\w$]*$/.test(k) ? k : "'" + k + "'") + ": " + inspect(v[k], opts, depth + 1, seen); });
      var name = v.constructor && v.constructor !== Object && v.constructor.name ? v.constructor.name + " " : "";
      if (Object.getPrototypeOf(v) === null) name = "[Object: null prototype] ";
      open = name + "{"; close = "}";
    }
    if (!parts.length) return open + close;
    var one = open + " " + parts.join(", ") + " " + close;
    if (one.length <= 72 && one.indexOf("\n") < 0) return one;
    var pad = "  ".repeat(depth + 1);
    return open + "\n" + pad + parts.join(",\n" + pad) + "\n" + "  ".repeat(depth) + close;
  }
  function format(f) {
    var args = Array.prototype.slice.call(arguments, 1), i = 0;
    var out = typeof f === "string" ? f.replace(/%[sdifjoOc%]/g, function (m) {
      if (m === "%%") return "%";
      if (i >= args.length) return m;
      var a = args[i++];
      if (m === "%s") return typeof a === "string" ? a : inspect(a, { depth: 1 }, 1);
      if (m === "%d" || m === "%i") return String(m === "%i" ? parseInt(a, 10) : Number(a));
      if (m === "%f") return String(parseFloat(a));
      if (m === "%j") return JSON.stringify(a);
      if (m === "%c") return "";
      return inspect(a, {}, 1);
    }) : inspect(f);
    for (; i < args.length; i++) out += " " + (typeof args[i] === "string" ? args[i] : inspect(args[i]));
    return out;
  }

  // --- console -----------------------------------------------------------
  var counts = {}, timers = {}, group = "";
  function line(fd, args) { h.out(fd, (group ? format.apply(null, args).replace(/^/gm, group) : format.apply(null, args)) + "\n"); }
  G.console = {
    log: function () { line(1, arguments); }, info: function () { line(1, arguments); }, debug: function () { line(1, arguments); },
    error: function () { line(2, arguments); }, warn: function () { line(2, arguments); }, trace: function () { line(2, arguments); },
    dir: function (v, o) { h.out(1, inspect(v, o) + "\n"); },
    table: function (v) { h.out(1, inspect(v) + "\n"); },
    assert: function (c) { if (!c) line(2, ["Assertion failed"].concat(Array.prototype.slice.call(arguments, 1))); },
    count: function (l) { l = l || "default"; counts[l] = (counts[l] || 0) + 1; h.out(1, l + ": " + counts[l] + "\n"); },
    time: function (l) { timers[l || "default"] = Date.now(); },
    timeEnd: function (l) { l = l || "default"; h.out(1, l + ": " + (Date.now() - (timers[l] || Date.now())) + "ms\n"); },
    group: function () { if (arguments.length) line(1, arguments); group += "  "; }, groupEnd: function () { group = group.slice(2); },
  };

  // --- timers (virtual clock) -------------------------------------------
  var queue = [], nextId = 1, clock = 0;
  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== "function") throw new TypeError('The "callback" argument must be of type function');
    var t = { id: nextId++, fn: fn, at: clock + Math.max(0, Number(ms) || 0), args: args, repeat: repeat ? Math.max(1, Number(ms) || 0) : 0 };
    queue.push(t);
    return t.id;
  }
  function clear(id) { queue = queue.filter(function (t) { return t.id !== (id && id.id !== undefined ? id.id : id); }); }
  G.setTimeout = function (fn, ms) { return addTimer(fn, ms, Array.prototype.slice.call(arguments, 2), false); };
  G.setInterval = function (fn, ms) { return addTimer(fn, ms, Array.prototype.slice.call(arguments, 2), true); };
  G.setImmediate = function (fn) { return addTimer(fn, 0, Array.prototype.slice.call(arguments, 1), false); };
  G.clearTimeout = G.clearInterval = G.clearImmediate = clear;
  G.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
  G.fetch = function () { return Promise.reject(missingError("fetch (the network)")); };
  /** Runs the earliest due timer; false when none is left. */
  G.__tabcode_tick = function () {
    if (!queue.length) return false;
    queue.sort(function (a, b) { return a.at - b.at || a.id - b.id; });
    var t = queue.shift();
    clock = t.at;
    if (t.repeat) { t.at = clock + t.repeat; queue.push(t); }
    t.fn.apply(null, t.args);
    return true;
  };

  G.__tabcode_setup = { Buffer: Buffer, inspect: inspect, format: format, missing: missing, missingError: missingError };
})
`;
