// @ts-check
// The lanemap web app (docs/web.md): the core engine compiled to WebAssembly (lanemap-engine.js/.wasm, built
// from web/engine.cpp) and this page around it. Every layout fact — the catalog, the search, what a spec
// means, every cell's place, label, colour and tooltip, every export — comes from the engine; this file draws
// its Diagrams on a canvas (the painting order of core/include/lanemap/diagram.hpp, as resources/site/variant.js
// draws a static page), keeps the view in the URL, and handles the pointer and the keyboard.
//
// The URL holds the whole view (docs/web.md#links):
//   #<spec>[/<operand>:<row>,<col>][?<option>=<value>&...]
//   e.g. #mma.m16n8k16.f16/A:3,11?color=register&lanes=0-3
// Options: view (layout, smem, banks), smem (the bank view's tile placement, as `banks --smem`:
// row-major,pitch=64,swizzle=3,4,3), feeds (the operand the bank view's move feeds: mma.m16n8k16.f16:A), copy
// (what moves a tiled copy in the bank view: empty for the instruction shown, or ld.shared.b32, .v2.b32,
// .v4.b32, as `banks MOVE`), major (k, mn), swizzle (128, 64, 32, none), ld / st (a tcgen05.mma's D read by
// a tcgen05.ld, its A written by a tcgen05.st: 32x32b.x2), atoms / perm (a tile of the atom, CuTe's
// notation: (2,2,1)), compare (another spec: the compare view, both side by side, the differing cells framed),
// sel (a sparsity selector), color (lane, register, group), palette (default, colorblind),
// lanes (0-3,13), zoom (0.5 .. 2).
// A pasted layout (docs/web.md#paste-a-layout): #paste/<the text, percent-encoded>?shape=16x16&against=SPEC:OP
//   [&pin=layout:<row>,<col>][&<the page's options>], read by the engine as `lanemap-cli show/identify/check`.
// A descriptor encoded (docs/web.md#descriptors): #encode/<wgmma|smem|idesc>?start=0&lbo=16&... , the fields
//   as `lanemap-cli decode --smem-desc-from / --idesc-from` name them.
"use strict";

/**
 * @typedef {{error?: string}} Answer
 * @typedef {{spec: string, ptx: string, family: string, m: number, n: number, k: number, sm: number,
 *            sparse: boolean}} CatalogRow
 * @typedef {{operand: string, row: number, col: number}} CellRef  a cell as a link names it
 * @typedef {{view: string, major: string, swizzle: string, smem: string, feeds: string, copy: string, ld: string,
 *            st: string,
 *            atoms: string,
 *            perm: string, compare: string, operand: string, sel: string, color: string, palette: string, lanes: string,
 *            zoom: string}} Options
 * @typedef {{text: string, shape: string, against: string, beside: string}} Paste  a pasted layout (#paste/...)
 * @typedef {{what: string, fields: [string, string][]}} Encode  a descriptor's fields (#encode/...)
 * @typedef {{spec: string, cell: CellRef|null, options: Options, query?: string, paste?: Paste,
 *            encode?: Encode}} ViewState
 */

(function () {
  const SANS = '"Helvetica Neue",Helvetica,Arial,"Liberation Sans","DejaVu Sans",sans-serif';
  const MONO = '"DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono","Courier New",monospace';
  const DIM_FILL = "#f0f0f0", DIM_TEXT = "#a0a0a0"; // cells outside the lane filter, as the SVG greys them
  const MARK = "#d00000"; // a cell that differs from the one compared with (the app's compare marks them red)
  // Fields of one cell in a panel's flat array (cellFields in core/src/export/export_html.cpp).
  const F = { x: 0, y: 1, w: 2, h: 3, thread: 4, element: 5, reg: 6, bitLo: 7, bitHi: 8, row: 9, col: 10,
              colLast: 11, matrix: 12, owners: 13, source: 14 };
  const STRIDE = 15;
  /** @type {Options} */
  const DEFAULTS = { view: "layout", major: "k", swizzle: "128", smem: "", feeds: "", copy: "", ld: "", st: "", atoms: "", perm: "",
                     compare: "",
                     operand: "A", sel: "",
                     color: "lane", palette: "default", lanes: "", zoom: "1" };
  // The options the engine reads (the others are the page's own).
  const ENGINE_OPTIONS = ["view", "major", "swizzle", "smem", "feeds", "copy", "ld", "st", "atoms", "perm", "compare",
                          "operand"];

  const t0 = performance.now();
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

  // ---- The engine: C functions that take text and answer JSON (web/engine.cpp). ----
  class Engine {
    /** @param {any} module */
    constructor(module) {
      this.m = module;
      this.lastMs = { engine: 0, parse: 0, bytes: 0, copy: 0 };
    }
    /** @param {string} name @param {string[]} args @returns {any} */
    call(name, ...args) {
      const m = this.m;
      const ptrs = args.map(function (s) {
        const n = m.lengthBytesUTF8(s) + 1;
        const p = m._malloc(n);
        m.stringToUTF8(s, p, n);
        return p;
      });
      try {
        const t = performance.now();
        const text = m.UTF8ToString(m["_lm_" + name].apply(null, ptrs));
        const u = performance.now();
        const value = JSON.parse(text);
        // The last call's time in the engine and in JSON.parse (docs/performance.md, "The web app").
        this.lastMs = { engine: u - t, parse: performance.now() - u, bytes: text.length, copy: 0 };
        return value;
      } finally {
        ptrs.forEach(function (p) { m._free(p); });
      }
    }
    /** @returns {{variants: CatalogRow[]}} */
    catalog() { return this.call("catalog"); }
    /** @param {string} query @returns {{matches: number[]}} */
    search(query) { return this.call("search", query); }
    /** @param {string} spec @param {string} options @returns {any} */
    view(spec, options) { return this.withCells(this.call("view", spec, options)); }
    /** @param {any} answer @returns {any} */
    withCells(answer) {
      if (answer.error) return answer;
      // Each panel's cells: 15 numbers a cell, copied out of the engine's memory (no text to parse).
      const t = performance.now();
      const heap = this.m.HEAPF32, base = this.m._lm_cells() >> 2;
      for (const d of answer.data.diagrams)
        for (const p of d.panels)
          if (p && p.cellsAt) p.cells = heap.slice(base + p.cellsAt[0], base + p.cellsAt[0] + p.cellsAt[1] * STRIDE);
      this.lastMs.copy = performance.now() - t;
      return answer;
    }
    /** @param {number} picture @param {number} panel @param {number} cell @returns {string} */
    tooltip(picture, panel, cell) { return this.m.UTF8ToString(this.m._lm_tooltip(picture, panel, cell)); }
    /** @param {string} what @param {string} value @param {string} kind @returns {any} */
    decode(what, value, kind) { return this.call("decode", what, value, kind); }
    /** @param {Encode} e @returns {any} the value of the fields, or the rules they break */
    encode(e) {
      return this.call("encode", e.what, e.fields.map(function (f) { return f[0] + "=" + f[1]; }).join("&"));
    }
    /** @param {Paste} p @returns {any} a pasted layout read, drawn and compared (or where it does not read) */
    paste(p) { return this.withCells(this.call("paste", p.text, p.shape, p.against, p.beside)); }
    /** @param {Paste} p @param {string} format @returns {{document?: string, extension?: string, error?: string}} */
    pasteExport(p, format) { return this.call("paste_export", p.text, p.shape, p.against, format); }
    /** @param {string} spec @param {string} options @param {string} format
     *  @returns {{document?: string, extension?: string, error?: string}} */
    exportDocument(spec, options, format) { return this.call("export", spec, options, format); }
  }

  // ---- The URL: one readable string for the whole view. ----
  /** @param {string} hash @returns {ViewState} */
  function parseHash(hash) {
    if (/^#?paste\//.test(hash)) return parsePaste(hash.replace(/^#?paste\//, ""));
    if (/^#?encode\//.test(hash)) return parseEncode(hash.replace(/^#?encode\//, ""));
    let text = hash.replace(/^#/, "");
    try { text = decodeURIComponent(text); } catch (e) { /* keep it as typed */ }
    const options = Object.assign({}, DEFAULTS);
    const q = text.indexOf("?");
    if (q >= 0) {
      for (const part of text.slice(q + 1).split("&")) {
        const eq = part.indexOf("=");
        const key = eq < 0 ? part : part.slice(0, eq), value = eq < 0 ? "" : part.slice(eq + 1);
        if (key in DEFAULTS) /** @type {any} */ (options)[key] = value;
      }
      text = text.slice(0, q);
    }
    // The old static index's search link (index.html#q=m16n8k16%20bf16): a search, no variant.
    if (text.startsWith("q=")) return { spec: "", cell: null, options: options, query: text.slice(2) };
    // A static page's link (#A:3,11, #C/D:0,5;selector=1) names only a cell: of the variant shown.
    let spec = text, cellText = "";
    const old = /^([A-Za-z/]+:\d+,\d+)(?:;selector=(\d+))?$/.exec(text);
    if (old) {
      spec = "";
      cellText = old[1];
      if (old[2] !== undefined) options.sel = old[2];
    } else {
      const m = /^(.*?)\/([^/]*(?:\/[^/:]*)?:\d+,\d+)$/.exec(text);
      if (m) {
        spec = m[1];
        cellText = m[2];
      }
    }
    /** @type {CellRef|null} */
    let cell = null;
    const c = /^(.+):(\d+),(\d+)$/.exec(cellText);
    if (c) cell = { operand: c[1], row: Number(c[2]), col: Number(c[3]) };
    return { spec: spec, cell: cell, options: options };
  }
  /** @param {string} text @returns {string} "%2C" back to "," where an address may hold it as it is */
  function decodeSafe(text) {
    try { return decodeURIComponent(text); } catch (e) { return text; }
  }
  // The pasted text in the address: percent-encoded, except the characters a layout is written with that an
  // address holds as they are (so a CuTe layout reads as itself: #paste/((4,8),(2,2)):((32,1),(16,8))).
  /** @param {string} text */
  function encodePaste(text) {
    return encodeURIComponent(text).replace(/%(2C|3A|5B|5D|7B|7D|3D|40|2F|3B|2B|24)/g, function (m) {
      return decodeURIComponent(m);
    });
  }
  // "#paste/<text>?shape=..&against=..&pin=layout:3,4&color=.." (the text's own "?" and "&" are encoded).
  /** @param {string} rest @returns {ViewState} */
  function parsePaste(rest) {
    const q = rest.indexOf("?");
    const options = Object.assign({}, DEFAULTS);
    /** @type {Paste} */
    const paste = { text: decodeSafe(q < 0 ? rest : rest.slice(0, q)), shape: "", against: "", beside: "" };
    /** @type {CellRef|null} */
    let cell = null;
    if (q >= 0)
      for (const part of rest.slice(q + 1).split("&")) {
        const eq = part.indexOf("=");
        const key = eq < 0 ? part : part.slice(0, eq), value = decodeSafe(eq < 0 ? "" : part.slice(eq + 1));
        if (key === "shape" || key === "against" || key === "beside") paste[key] = value;
        else if (key === "pin") {
          const c = /^(.+):(\d+),(\d+)$/.exec(value);
          if (c) cell = { operand: c[1], row: Number(c[2]), col: Number(c[3]) };
        } else if (key in DEFAULTS && ENGINE_OPTIONS.indexOf(key) < 0) /** @type {any} */ (options)[key] = value;
      }
    return { spec: "paste", cell: cell, options: options, paste: paste };
  }
  // "#encode/<what>?key=value&..." (each value percent-encoded), the fields in the form's order.
  /** @param {string} rest @returns {ViewState} */
  function parseEncode(rest) {
    const q = rest.indexOf("?");
    /** @type {[string, string][]} */
    const fields = [];
    if (q >= 0)
      for (const part of rest.slice(q + 1).split("&")) {
        if (!part) continue;
        const eq = part.indexOf("=");
        fields.push([decodeSafe(eq < 0 ? part : part.slice(0, eq)), decodeSafe(eq < 0 ? "" : part.slice(eq + 1))]);
      }
    const what = decodeSafe(q < 0 ? rest : rest.slice(0, q));
    return { spec: "encode/" + what, cell: null, options: Object.assign({}, DEFAULTS),
             encode: { what: what, fields: fields } };
  }
  /** @param {ViewState} s @returns {string} */
  function hashOf(s) {
    if (s.encode) {
      const parts = s.encode.fields.map(function (f) { return encodePaste(f[0]) + "=" + encodePaste(f[1]); });
      return "#encode/" + encodePaste(s.encode.what) + (parts.length ? "?" + parts.join("&") : "");
    }
    if (s.paste) {
      const parts = [];
      if (s.paste.shape) parts.push("shape=" + encodePaste(s.paste.shape));
      if (s.paste.against) parts.push("against=" + encodePaste(s.paste.against));
      if (s.paste.beside) parts.push("beside=" + encodePaste(s.paste.beside));
      if (s.cell) parts.push("pin=" + s.cell.operand + ":" + s.cell.row + "," + s.cell.col);
      for (const k of Object.keys(DEFAULTS)) {
        const v = /** @type {any} */ (s.options)[k];
        if (ENGINE_OPTIONS.indexOf(k) < 0 && v !== /** @type {any} */ (DEFAULTS)[k] && v !== "")
          parts.push(k + "=" + encodePaste(v));
      }
      return "#paste/" + encodePaste(s.paste.text) + (parts.length ? "?" + parts.join("&") : "");
    }
    let h = "#" + s.spec;
    if (s.cell) h += "/" + s.cell.operand + ":" + s.cell.row + "," + s.cell.col;
    const parts = [];
    for (const k of Object.keys(DEFAULTS)) {
      const v = /** @type {any} */ (s.options)[k];
      if (v !== /** @type {any} */ (DEFAULTS)[k] && v !== "") parts.push(k + "=" + v);
    }
    if (parts.length) h += "?" + parts.join("&");
    return encodeURI(h).replace(/%5B/g, "[").replace(/%5D/g, "]");
  }
  /** @param {Options} o */
  function engineOptions(o) {
    return ENGINE_OPTIONS.filter(function (k) {
      return /** @type {any} */ (o)[k] !== /** @type {any} */ (DEFAULTS)[k];
    }).map(function (k) { return k + "=" + /** @type {any} */ (o)[k]; }).join("&");
  }

  // ---- Page state ----
  /** @type {Engine} */
  let engine;
  /** @type {CatalogRow[]} */
  let catalog = [];
  /** @type {ViewState} */
  let state = { spec: "", cell: null, options: Object.assign({}, DEFAULTS) };
  /** @type {any} the engine's answer for the view shown */
  let shown = null;
  let shownKey = "";
  /** @type {any[]} */
  let diagrams = [];
  let diagramIndex = 0;
  /** @type {[number, number]|null} */
  let hover = null;
  /** @type {[number, number]|null} */
  let pinned = null;
  /** @type {[number, number]|null} */
  let cursor = null; // the keyboard's cell
  /** @type {Set<number>|null} */
  let lanes = null;

  const box = $("diagram"), sizer = $("sizer");
  const canvas = /** @type {HTMLCanvasElement} */ ($("canvas"));
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  const details = $("details");
  const dpr = window.devicePixelRatio || 1;
  let view = { x: 0, y: 0, w: 0, h: 0 }; // the part of the picture on screen, in picture units
  let zoom = 1;

  function current() { return diagrams[diagramIndex]; }

  // Panels written as null are the first selector's (identical cells): share them. Grid and thread indexes.
  /** @param {any} data */
  function prepare(data) {
    return data.diagrams.map(function (/** @type {any} */ d) {
      const panels = d.panels.map(function (/** @type {any} */ p, /** @type {number} */ i) {
        return p || data.diagrams[0].panels[i];
      });
      const byThread = new Map();
      panels.forEach(function (/** @type {any} */ p, /** @type {number} */ pi) {
        if (!p.grid) {
          // Grid position (row * cols + col) -> the cells covering it: the first in a typed array, the rare
          // further owners (a chunk's columns, an element held twice) in a map.
          const n = p.cells.length / STRIDE;
          p.count = n;
          p.first = new Int32Array(p.rows * p.cols).fill(-1);
          p.more = new Map();
          p.grid = { get: function (/** @type {number} */ key) {
            const f = p.first[key];
            if (f < 0) return undefined;
            const rest = p.more.get(key);
            return rest ? [f].concat(rest) : [f];
          } };
          for (let i = 0; i < n; ++i) {
            const at = i * STRIDE;
            for (let c = p.cells[at + F.col]; c <= p.cells[at + F.colLast]; ++c) {
              const key = p.cells[at + F.row] * p.cols + c;
              if (p.first[key] < 0) p.first[key] = i;
              else {
                const list = p.more.get(key);
                if (list) list.push(i); else p.more.set(key, [i]);
              }
            }
          }
        }
        for (let i = 0; i < p.count; ++i) {
          const t = p.cells[i * STRIDE + F.thread];
          const list = byThread.get(t);
          if (list) list.push([pi, i]); else byThread.set(t, [[pi, i]]);
        }
      });
      // A compare's differing cells (the engine's marks: per panel, cell indices), drawn framed in red.
      const marks = data === shown.data && shown.marks ? shown.marks : [];
      panels.forEach(function (/** @type {any} */ p, /** @type {number} */ pi) {
        p.marked = new Uint8Array(p.count);
        for (const i of marks[pi] || []) p.marked[i] = 1;
      });
      return { width: d.width, height: d.height, selector: d.selector, texts: d.texts, lines: d.lines,
               bitFields: d.bitFields, panels: panels, byThread: byThread };
    });
  }

  /** @param {[number, number]} ref */
  function cell(ref) {
    const p = current().panels[ref[0]];
    const at = ref[1] * STRIDE;
    /** @type {any} */
    const c = {};
    for (const k in F) c[k] = p.cells[at + /** @type {any} */ (F)[k]];
    c.panel = ref[0];
    c.index = ref[1];
    c.operand = p.operand;
    c.lane = c.thread % 32;
    // Memory panels carry the key their view colours by (a chunk's bank group): lane colours show it.
    c.key = p.keys ? p.keys[ref[1]] : undefined;
    // A tiled copy's cells carry their own colour: the warp that moves the row, a phase conflicted or not.
    c.fill = p.fills ? p.fills[ref[1]] : undefined;
    c.drawn = !p.bare && p.labels[ref[1]] !== "";
    c.marked = p.marked ? p.marked[ref[1]] === 1 : false;
    c.label = c.drawn ? p.labels[ref[1]] : "";
    return c;
  }
  // A cell's tooltip, asked of the engine when shown (the data carries none: most cells are never hovered),
  // and its name: its label, or the tooltip's first field where it draws none.
  /** @param {[number, number]} ref */
  function tipOf(ref) {
    // A panel shared with the first selector's picture (written once) is that picture's.
    const own = shown.data.diagrams[diagramIndex].panels[ref[0]] ? diagramIndex : 0;
    return engine.tooltip(own, ref[0], ref[1]);
  }
  /** @param {any} c */
  function colorKey(c) {
    const by = state.options.color;
    if (by === "register") return c.reg;
    if (by === "group") return (c.thread % 32) >> 2;
    return c.key !== undefined ? c.key : c.thread % 32;
  }
  function colorTable() {
    const pal = shown.data.palettes[state.options.palette] || shown.data.palettes["default"];
    return pal[state.options.color] || pal["lane"];
  }
  /** @param {any} c */
  function colors(c) {
    if (lanes && !lanes.has(c.thread)) return [DIM_FILL, DIM_TEXT];
    if (c.fill) return [c.fill, textOn(c.fill)];
    const table = colorTable();
    return table[colorKey(c) % table.length];
  }
  // Dark text on a light fill, white on a dark one (the SVG writer's labelColorOn).
  /** @param {string} fill #rrggbb @returns {string} */
  function textOn(fill) {
    const v = parseInt(fill.slice(1), 16);
    const luma = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
    return luma < 140 ? "#fff" : "#111";
  }
  /** @param {number} size @param {boolean|number} bold @param {boolean|number} mono */
  function font(size, bold, mono) { return (bold ? "bold " : "") + size + "px " + (mono ? MONO : SANS); }

  /** @param {CanvasRenderingContext2D} g @param {any} c @param {boolean} outline */
  function drawCell(g, c, outline) {
    const col = colors(c);
    g.fillStyle = col[0];
    g.fillRect(c.x, c.y, c.w, c.h);
    g.strokeStyle = outline ? "#000" : "#fff";
    g.lineWidth = outline ? 2.5 : 1;
    g.strokeRect(c.x + 0.5, c.y + 0.5, c.w - 1, c.h - 1);
    if (c.marked) {
      // Differs from the operand compared with: a red frame inside the cell and a red corner.
      g.strokeStyle = MARK;
      g.lineWidth = 2;
      g.strokeRect(c.x + 2, c.y + 2, c.w - 4, c.h - 4);
      g.fillStyle = MARK;
      g.beginPath();
      g.moveTo(c.x + c.w - 1, c.y + 1);
      g.lineTo(c.x + c.w - 1, c.y + Math.min(8, c.h / 2));
      g.lineTo(c.x + c.w - Math.min(8, c.w / 2), c.y + 1);
      g.fill();
    }
    if (c.w * zoom >= 8 && c.drawn) {
      g.fillStyle = col[1];
      g.font = font(shown.data.cellFont, false, true);
      g.textAlign = "center";
      g.fillText(c.label, c.x + c.w / 2, c.y + Math.round(c.h / 2 + shown.data.cellFont * 0.35), c.w - 2);
    }
  }
  /** @param {CanvasRenderingContext2D} g @param {any[]} f @param {boolean} outline */
  function drawField(g, f, outline) {
    const p = current().panels[f[7]];
    const c = f[6] >= 0 && p ? cell([f[7], f[6]]) : null;
    const col = c ? colors(c) : ["#fff", "#111"];
    g.fillStyle = col[0];
    g.fillRect(f[0], f[1], f[2], f[3]);
    g.strokeStyle = outline ? "#000" : "#222";
    g.lineWidth = outline ? 2.5 : 1.5;
    g.strokeRect(f[0], f[1], f[2], f[3]);
    const size = shown.data.cellFont - 1, lineH = size + 2;
    const y1 = f[1] + f[3] / 2 - lineH / 2 + size * 0.35;
    g.fillStyle = col[1];
    g.font = font(size, false, true);
    g.textAlign = "center";
    g.fillText(f[4], f[0] + f[2] / 2, y1, f[2]);
    g.fillText(f[5], f[0] + f[2] / 2, y1 + lineH, f[2]);
  }
  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  function visible(x, y, w, h) {
    return x < view.x + view.w && x + w > view.x && y < view.y + view.h && y + h > view.y;
  }
  // Cells of panel pi inside the view, each once (a chunk spans several columns): only what is on screen is
  // drawn, so the 65,536 cells of a Tensor Memory cost what the visible few hundred cost.
  /** @param {number} pi @param {(i: number) => void} each */
  function visibleCells(pi, each) {
    const p = current().panels[pi];
    const c0 = Math.max(0, Math.floor((view.x - p.x) / p.cw));
    const c1 = Math.min(p.cols - 1, Math.floor((view.x + view.w - p.x) / p.cw));
    const r0 = Math.max(0, Math.floor((view.y - p.y) / p.ch));
    const r1 = Math.min(p.rows - 1, Math.floor((view.y + view.h - p.y) / p.ch));
    for (let r = r0; r <= r1; ++r)
      for (let c = c0; c <= c1; ++c)
        for (const i of p.grid.get(r * p.cols + c) || [])
          if (c === Math.max(c0, p.cells[i * STRIDE + F.col])) each(i);
  }

  // The Diagram's painting order (core/include/lanemap/diagram.hpp); the legend is HTML, above the picture.
  // With a lit thread (hover or cursor, else pin) the other cells fade and the lit ones are outlined.
  function draw() {
    const d = current();
    const thread = litThread();
    const g = ctx;
    g.setTransform(dpr * zoom, 0, 0, dpr * zoom, -view.x * dpr * zoom, -view.y * dpr * zoom);
    g.globalAlpha = 1;
    g.fillStyle = "#fff";
    g.fillRect(view.x, view.y, view.w, view.h);
    for (const b of d.bitFields) {
      if (!visible(b.rect[0], b.rect[1], b.rect[2], b.rect[3])) continue;
      g.fillStyle = "#fff";
      g.fillRect(b.rect[0], b.rect[1], b.rect[2], b.rect[3]);
      g.strokeStyle = "#222";
      g.lineWidth = 1;
      g.strokeRect(b.rect[0], b.rect[1], b.rect[2], b.rect[3]);
      g.strokeStyle = "#bbb";
      g.beginPath();
      const bw = b.rect[2] / b.bits;
      for (let i = 1; i < b.bits; ++i) {
        g.moveTo(b.rect[0] + i * bw, b.rect[1]);
        g.lineTo(b.rect[0] + i * bw, b.rect[1] + b.rect[3]);
      }
      g.stroke();
    }
    /** @type {any[]} */
    const lit = [];
    d.panels.forEach(function (/** @type {any} */ p, /** @type {number} */ pi) {
      visibleCells(pi, function (i) {
        const c = cell([pi, i]);
        if (thread !== null && c.thread === thread) lit.push(c);
        else {
          g.globalAlpha = thread === null ? 1 : 0.35;
          drawCell(g, c, false);
        }
      });
    });
    for (const b of d.bitFields)
      for (const f of b.fields) {
        if (!visible(f[0], f[1], f[2], f[3])) continue;
        const mine = f[6] >= 0 && d.panels[f[7]].cells[f[6] * STRIDE + F.thread] === thread;
        g.globalAlpha = thread === null || mine ? 1 : 0.35;
        drawField(g, f, mine);
      }
    g.globalAlpha = 1;
    for (const c of lit) drawCell(g, c, true);
    for (const l of d.lines) {
      if (!visible(Math.min(l[0], l[2]) - 2, Math.min(l[1], l[3]) - 2, Math.abs(l[2] - l[0]) + 4,
                   Math.abs(l[3] - l[1]) + 4)) continue;
      g.strokeStyle = l[5];
      g.lineWidth = l[4];
      g.beginPath();
      g.moveTo(l[0], l[1]);
      g.lineTo(l[2], l[3]);
      g.stroke();
    }
    for (const t of d.texts) {
      if (!t || !visible(t[0] - 2000, t[1] - 40, 4000, 60)) continue;
      g.font = font(t[3], t[4], t[5]);
      g.fillStyle = t[7];
      g.textAlign = t[6] === "middle" ? "center" : t[6] === "end" ? "right" : "left";
      g.fillText(t[2], t[0], t[1]);
    }
    for (const b of d.bitFields) {
      g.font = font(shown.data.cellFont + 2, true, true);
      g.fillStyle = "#222";
      g.textAlign = "left";
      g.fillText(b.title, b.tx, b.ty);
    }
    if (cursor && document.activeElement === box) {
      const c = cell(cursor);
      g.strokeStyle = "#e66100";
      g.lineWidth = 2;
      g.setLineDash([4, 2]);
      g.strokeRect(c.x - 3, c.y - 3, c.w + 6, c.h + 6);
      g.setLineDash([]);
    }
    if (pinned) {
      const c = cell(pinned);
      g.strokeStyle = "#1f6fd1";
      g.lineWidth = 3;
      g.strokeRect(c.x - 1.5, c.y - 1.5, c.w + 3, c.h + 3);
    }
  }
  // The canvas covers the scroll box's view of the picture (the sizer is as large as the whole picture).
  function size() {
    const d = current();
    sizer.style.width = d.width * zoom + "px";
    sizer.style.height = d.height * zoom + "px";
  }
  function sync() {
    const d = current();
    size();
    const w = Math.min(d.width * zoom, box.clientWidth), h = Math.min(d.height * zoom, box.clientHeight || d.height * zoom);
    view = { x: box.scrollLeft / zoom, y: box.scrollTop / zoom, w: w / zoom, h: h / zoom };
    if (canvas.width !== Math.ceil(w * dpr) || canvas.height !== Math.ceil(h * dpr)) {
      canvas.width = Math.ceil(w * dpr);
      canvas.height = Math.ceil(h * dpr);
      canvas.style.width = w + "px";
      canvas.style.height = h + "px";
    }
    canvas.style.left = box.scrollLeft + "px";
    canvas.style.top = box.scrollTop + "px";
    draw();
  }

  function litThread() {
    const ref = hover || cursor || pinned;
    return ref ? cell(ref).thread : null;
  }
  function overlay() {
    sync();
    const d = current();
    const thread = litThread();
    const lit = thread === null ? [] : (d.byThread.get(thread) || []);
    // What the tests (and curious readers) can check without looking at pixels.
    document.body.dataset.litThread = thread === null ? "" : String(thread);
    document.body.dataset.litCells = String(lit.length);
    document.body.dataset.pinned = pinned ? linkCell(pinned) : "";
    showDetails();
  }

  /** @param {number} thread */
  function holds(thread) {
    /** @type {Map<string, {n: number, regs: Set<number>}>} */
    const per = new Map();
    for (const ref of current().byThread.get(thread) || []) {
      const c = cell(ref);
      let v = per.get(c.operand);
      if (!v) per.set(c.operand, v = { n: 0, regs: new Set() });
      v.n += 1;
      v.regs.add(c.reg);
    }
    const parts = [];
    for (const [op, v] of per)
      parts.push(op + ": " + v.n + (v.n === 1 ? " element" : " elements") +
                 (shown.data.scope === "tmem" || shown.view !== "layout" ? ""
                  : " in " + v.regs.size + (v.regs.size === 1 ? " register" : " registers")));
    return parts.join("; ");
  }
  function showDetails() {
    const ref = hover || cursor || pinned;
    details.classList.toggle("pinned", !!pinned && !hover && !cursor);
    /** @type {HTMLButtonElement} */ ($("unpin")).disabled = !pinned;
    if (!ref) {
      details.textContent = "Hover a cell (or focus the picture and use the arrow keys) for its lane, register, " +
        "bits and source; a click or Enter pins it, and the address bar then links to it.";
      return;
    }
    const c = cell(ref);
    c.tip = tipOf(ref);
    if (!c.drawn) c.label = c.tip.split(" \u00b7 ")[0];
    const data = shown.data;
    const who = shown.view === "smem" ? "chunk group " + c.thread : data.scope === "tmem" ? "TMEM lane " + c.thread
      : data.scope === "warpgroup" ? "T" + c.thread + " (warp " + Math.floor(c.thread / 32) + ", lane " + c.lane + ")"
      : "T" + c.thread;
    let source = "source: " + data.sources[c.source];
    if (data.evidence) source += "; hardware: " + data.evidence.verdict + " on the " + data.evidence.run;
    else source += "; no recorded hardware run covers this variant";
    if (shown.paste) source = shown.paste.notation + ": " + shown.paste.canonical;
    if (c.marked && shown.compare)
      source = "held by another (thread, element) in the other instruction; " + source;
    if (c.marked && shown.paste && shown.paste.check)
      source = "differs from " + shown.paste.check.spec + " " + shown.paste.check.operand + " here (see the list above); " + source;
    const head = ref === pinned && !hover && !cursor ? "pinned  " : ref === cursor && !hover ? "cursor  " : "";
    details.textContent = [head + c.operand + " row " + c.row + " col " + c.col +
                           (c.colLast !== c.col ? ".." + c.colLast : "") + "   " + c.label,
                           c.tip, source, who + " holds " + holds(c.thread)].join("\n");
  }

  function legend() {
    const el = $("legend");
    const table = colorTable();
    const used = new Set();
    const d = current();
    for (const p of d.panels)
      for (let at = 0, i = 0; at < p.cells.length; at += STRIDE, ++i) {
        const thread = p.cells[at + F.thread];
        if (!lanes || lanes.has(thread))
          used.add(colorKey({ thread: thread, reg: p.cells[at + F.reg], key: p.keys ? p.keys[i] : undefined }));
      }
    const keys = Array.from(used).sort(function (a, b) { return a - b; });
    const by = state.options.color, scope = shown.data.scope;
    // Shared-memory chunks (not an ldmatrix's bank view, whose keys are the threads) are coloured by bank group.
    const memory = by === "lane" && shown.view !== "banks" && d.panels.some(function (/** @type {any} */ p) {
      return !!p.keys;
    });
    const title = shown.paste && !shown.paste.shared && by === "lane"
      ? "colour = lane (thread % 32); label T<thread>:v<value>, the notation's value number"
      : memory ? "colour = the bank group a chunk lands in: banks 4k..4k+3"
      : by === "lane" ? (scope === "tmem" ? "colour = TMEM lane % 32: the lane of the warp that reaches it"
      : scope === "warpgroup" ? "colour = lane (thread % 32); label T<thread>: thread = 32 \u00d7 warp + lane"
      : "colour = lane (%laneid); label T<lane>:<operand><element index>")
      : by === "register" ? "colour = fragment register (metadata: the e register)"
      : "colour = groupID (lane >> 2): lanes 4g .. 4g+3";
    el.textContent = "";
    const t = document.createElement("span");
    t.className = "title";
    t.textContent = title;
    el.appendChild(t);
    const copy = d.panels.find(function (/** @type {any} */ p) { return p.kind === "copy" && p.labels; });
    if (copy) { // a tiled copy: one colour a warp, as the cells have them (label w<warp>#<instruction> b<banks>)
      // (A cell is an ldmatrix's matrix row, or an ld.shared's vector: one thread's own registers.)
      t.textContent = "colour = the warp that moves the " + (shown.feed && shown.feed.sharedLoad ? "vector" : "row") +
        "; label w<warp>#<instruction> b<banks>; the phase table's red cells are bank conflicts";
      /** @type {Map<number, string>} */
      const warps = new Map();
      for (let i = 0; i < copy.labels.length; ++i) {
        const m = /^w(\d+)#/.exec(copy.labels[i]);
        if (m && !warps.has(Number(m[1]))) warps.set(Number(m[1]), copy.fills[i]);
      }
      for (const [w, fill] of Array.from(warps).sort(function (a, b) { return a[0] - b[0]; })) {
        const e = document.createElement("span");
        const i = document.createElement("i");
        i.style.background = fill;
        e.appendChild(i);
        e.appendChild(document.createTextNode("warp " + w));
        el.appendChild(e);
      }
      return;
    }
    if (keys.length > 64) return; // a chunk or TMEM view: every cell its own key
    for (const k of keys) {
      const e = document.createElement("span");
      const i = document.createElement("i");
      i.style.background = table[k % table.length][0];
      e.appendChild(i);
      e.appendChild(document.createTextNode(memory ? "banks " + 4 * k + "\u2013" + (4 * k + 3) : by === "lane" ? "lane " + k : by === "register" ? "reg " + k
        : "group " + k + " (lanes " + 4 * k + "\u2013" + (4 * k + 3) + ")"));
      el.appendChild(e);
    }
  }

  // Hit test: the panel's grid arithmetic, then the few owners of that position; then the metadata fields.
  /** @param {number} x @param {number} y @returns {[number, number]|null} */
  function refAt(x, y) {
    const d = current();
    for (let pi = 0; pi < d.panels.length; ++pi) {
      const p = d.panels[pi];
      const col = Math.floor((x - p.x) / p.cw), row = Math.floor((y - p.y) / p.ch);
      if (col < 0 || row < 0 || col >= p.cols || row >= p.rows) continue;
      for (const i of p.grid.get(row * p.cols + col) || []) {
        const at = i * STRIDE;
        const cx = p.cells[at], cy = p.cells[at + 1], cw = p.cells[at + 2], ch = p.cells[at + 3];
        if (x >= cx && x < cx + cw && y >= cy && y < cy + ch) return [pi, i];
      }
    }
    for (const b of d.bitFields)
      for (const f of b.fields)
        if (f[6] >= 0 && x >= f[0] && x < f[0] + f[2] && y >= f[1] && y < f[1] + f[3]) return [f[7], f[6]];
    return null;
  }
  /** @param {MouseEvent} ev */
  function eventRef(ev) {
    const r = sizer.getBoundingClientRect();
    return refAt((ev.clientX - r.left) / zoom, (ev.clientY - r.top) / zoom);
  }
  /** @param {any} a @param {any} b */
  function same(a, b) { return a === b || (a && b && a[0] === b[0] && a[1] === b[1]); }

  // A panel's name in a link: "C/D" is written D (either letter finds the merged panel).
  /** @param {string} name */
  function operandWord(name) { return name.indexOf("/") >= 0 ? name.split("/").pop() || name : name; }
  /** @param {[number, number]} ref */
  function linkCell(ref) {
    const c = cell(ref);
    return operandWord(c.operand) + ":" + c.row + "," + c.col;
  }
  /** @param {[number, number]} ref @returns {CellRef} */
  function cellRef(ref) {
    const c = cell(ref);
    return { operand: operandWord(c.operand), row: c.row, col: c.col };
  }
  // The cell at (row, col) of the panel named `operand` (the `nth` so named: a compare view's right side is 1).
  /** @param {string} operand @param {number} row @param {number} col @param {number} [nth] @returns {[number, number]|null} */
  function findCell(operand, row, col, nth) {
    const want = operand.toLowerCase();
    const d = current();
    let skip = nth || 0;
    for (let pi = 0; pi < d.panels.length; ++pi) {
      const p = d.panels[pi];
      const name = p.operand.toLowerCase();
      const fits = name === want || name.split("/").indexOf(want) >= 0 || (name === "metadata" && want === "e");
      if (!fits || skip-- > 0) continue;
      for (const i of p.grid.get(row * p.cols + col) || []) return [pi, i];
    }
    return null;
  }
  /** @param {[number, number]} ref */
  function reveal(ref) {
    const c = cell(ref);
    const x = c.x * zoom, y = c.y * zoom, w = c.w * zoom, h = c.h * zoom;
    if (x < box.scrollLeft || x + w > box.scrollLeft + box.clientWidth)
      box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
    if (y < box.scrollTop || y + h > box.scrollTop + box.clientHeight)
      box.scrollTop = Math.max(0, y - box.clientHeight / 2);
  }

  // ---- Loading a view ----
  /** @param {string} message */
  function showError(message) {
    const e = $("error");
    e.textContent = message;
    e.hidden = !message;
    document.body.dataset.error = message;
  }
  function setStatus(/** @type {string} */ text) { $("status").textContent = text; }

  // Shows `next` (from the URL or a control): asks the engine for the picture when the selection changed,
  // then applies the page's own options and the pinned cell.
  /** @param {ViewState} next */
  function apply(next) {
    const started = performance.now();
    if (!next.spec && next.cell && state.spec) next.spec = state.spec; // an old "#A:3,11" link
    state = next;
    showError("");
    if (next.query !== undefined) {
      const search = /** @type {HTMLInputElement} */ ($("search"));
      search.value = next.query;
      filter(next.query);
    }
    const paste = state.paste;
    const decode = paste ? null : /^decode\/(wgmma|smem|idesc)\/([^/]*)(?:\/([^/]*))?$/.exec(state.spec);
    const encode = state.encode;
    $("decoder").hidden = !!state.spec && !decode;
    $("encoder").hidden = !!state.spec && !encode;
    $("paster").hidden = !!state.spec && !paste;
    if (paste) pasteFields(paste);
    else showPasteError(null);
    if (!state.spec || decode || encode) {
      $("variant").hidden = true;
      $("intro").hidden = !!decode || !!encode;
      $("pasteResult").textContent = "";
      if (decode) showDecoded(decode[1], decode[2], decode[3] || "f16");
      showEncoded(encode || { what: /** @type {HTMLSelectElement} */ ($("encodeWhat")).value, fields: [] }, !!encode);
      markCurrent();
      return;
    }
    $("intro").hidden = true;
    const key = paste ? "paste\n" + paste.text + "\n" + paste.shape + "\n" + paste.against + "\n" + paste.beside
      : state.spec + "?" + engineOptions(state.options);
    if (key !== shownKey) {
      const answer = paste ? engine.paste(paste) : engine.view(state.spec, engineOptions(state.options));
      if (answer.error && paste) {
        // The text (or its shape) does not read: where, and what was expected there; no picture.
        showPasteError(answer);
        $("pasteResult").textContent = "";
        $("variant").hidden = true;
        shown = null;
        shownKey = "";
        document.title = "pasted layout \u2014 lanemap";
        return;
      }
      if (answer.error) {
        showError(answer.error);
        // A bad option of the variant shown keeps its picture and pickers, to correct it there; so does a bad
        // word of its own grammar (a TMA box's), typed into its fields.
        const ownWords = !!shown && !!shown.words && shown.words.length > 0 &&
          state.spec.startsWith(shown.opcode + " ");
        if (!shown || (shown.spec !== state.spec && !ownWords)) {
          $("variant").hidden = true;
          $("intro").hidden = true;
          shown = null;
          shownKey = "";
        }
        return;
      }
      shown = answer;
      shownKey = key;
      const prepared = performance.now();
      diagrams = prepare(answer.data);
      const b = document.body.dataset;
      b.viewEngineMs = String(Math.round(engine.lastMs.engine));
      b.viewParseMs = String(Math.round(engine.lastMs.parse));
      b.viewBytes = String(engine.lastMs.bytes);
      b.viewCopyMs = String(Math.round(engine.lastMs.copy));
      b.prepareMs = String(Math.round(performance.now() - prepared));
      hover = cursor = pinned = null;
      header();
      document.body.dataset.viewMs = String(Math.round(performance.now() - started));
      let marked = 0;
      for (const list of shown.marks || []) marked += list.length;
      document.body.dataset.marked = String(marked);
      if (paste) pasteResult();
      // A PTX string or another spelling in the URL becomes the spec's one spelling.
      else if (answer.spec !== state.spec) {
        state.spec = answer.spec;
        history.replaceState(null, "", hashOf(state));
      }
    }
    $("variant").hidden = false;
    $("intro").hidden = true;
    const sel = Number(state.options.sel);
    const k = state.options.sel === "" ? 0 : diagrams.findIndex(function (d) { return d.selector === sel; });
    diagramIndex = Math.max(0, k);
    controls();
    zoom = Math.min(4, Math.max(0.25, Number(state.options.zoom) || 1));
    try {
      lanes = parseLanes(state.options.lanes);
      $("status").textContent = "";
    } catch (e) {
      lanes = null;
      setStatus(/** @type {Error} */ (e).message);
    }
    legend();
    pinned = state.cell ? findCell(state.cell.operand, state.cell.row, state.cell.col) : null;
    if (state.cell && !pinned)
      showError("The link names " + state.cell.operand + " row " + state.cell.row + " col " + state.cell.col +
                ", which " + (paste ? "the pasted layout" : state.spec) + " does not have.");
    size(); // (the scroll box can scroll to the pinned cell once the picture has its size)
    if (pinned) reveal(pinned);
    overlay();
    markCurrent();
    document.title = (paste ? "pasted layout" : state.spec) + " \u2014 lanemap";
    // From the URL to the picture drawn (the engine's answer, its parsing, the indexes, the canvas), for the
    // record (docs/performance.md, "The web app").
    document.body.dataset.paintMs = String(Math.round(performance.now() - started));
  }
  /** @param {ViewState} next */
  function go(next) {
    history.pushState(null, "", hashOf(next));
    apply(next);
  }
  /** @param {Partial<Options>} change */
  function setOptions(change) {
    const next = { spec: state.spec, cell: state.cell, options: Object.assign({}, state.options, change),
                   paste: state.paste };
    go(next);
  }

  // The title, PTX string, caption, hardware verdict and errata, from the engine's data.
  function header() {
    const data = shown.data;
    $("title").textContent = shown.paste ? "Pasted layout" : shown.spec;
    // (The PTX string and the caption lines are the picture's own first lines.)
    const ev = $("evidence");
    if (shown.paste) {
      // What was read: the notation, the layout printed back, its threads, values, shape, holes, replicas.
      const p = shown.paste;
      ev.className = "evidence";
      ev.textContent = p.notation + ": " + p.canonical + " \u2014 " +
        (p.shared ? p.shape + " (mode 0 x mode 1) of " + p.elementBits + "-bit elements, each cell its byte"
         : p.threads + " threads \u00d7 " + p.values + (p.values === 1 ? " value" : " values") + " over " + p.shape +
           (p.holes ? ", " + p.holes + " cells held by no thread" : "") +
           (p.replicated ? ", " + p.replicated + " cells held by several" : ""));
      $("errata").textContent = "";
      $("compared").hidden = true;
      return;
    }
    const compared = $("compared");
    compared.textContent = "";
    compared.hidden = !shown.compare;
    if (shown.compare) {
      // The compare view (the app's compare page): this instruction's operand left, the other's right.
      const c = shown.compare;
      compared.appendChild(document.createTextNode("Compared with "));
      const a = document.createElement("a");
      a.href = hashOf({ spec: c.spec, cell: null, options: DEFAULTS });
      a.textContent = c.spec;
      compared.appendChild(a);
      if (c.report !== undefined) {
        // A box and its reader, compared in shared memory (`lanemap-cli feeds`): the verdict and first
        // difference in the report's words.
        compared.appendChild(document.createTextNode(" (right), read as " + c.reader + ", in shared memory: " +
          (c.differing ? c.differing + " of " + c.positions + " positions differ \u2014 framed in red on both sides. "
           : "") + c.report));
        compared.className = "evidence" + (c.feeds ? " confirmed" : " error");
      } else {
        compared.className = "evidence";
        compared.appendChild(document.createTextNode(" (right), operand " + c.operand + ": " +
          (c.differing ? c.differing + " of " + c.positions + " positions held by another (thread, element) \u2014 " +
           "framed in red on both sides" : "every one of the " + c.positions + " positions held alike") + " \u00b7 "));
        const swap = document.createElement("a");
        swap.href = hashOf({ spec: c.spec, cell: null, options: Object.assign({}, DEFAULTS, { compare: shown.spec }) });
        swap.textContent = "swap";
        compared.appendChild(swap);
      }
    }
    ev.className = "evidence" + (data.evidence && data.evidence.verdict === "pass" ? " confirmed" : "");
    ev.textContent = data.evidence ? (data.evidence.verdict === "pass" ? "\u2713 Confirmed cell by cell"
      : "Hardware verdict " + data.evidence.verdict) + " on the " + data.evidence.run
      : "No recorded hardware run covers this variant: the layout is the PTX manual's.";
    const er = $("errata");
    er.textContent = "";
    for (const e of data.errata) {
      const li = document.createElement("li");
      const b = document.createElement("b");
      b.textContent = e.id + " (" + e.status + ") ";
      li.appendChild(b);
      li.appendChild(document.createTextNode(e.summary + " \u2014 " + e.why));
      er.appendChild(li);
    }
  }
  // The controls show the state (and only the ones that apply to this view).
  function controls() {
    const o = state.options;
    const views = /** @type {HTMLSelectElement} */ ($("view"));
    views.textContent = "";
    for (const v of shown.views) {
      const opt = document.createElement("option");
      opt.value = v;
      opt.textContent = v === "smem" ? "shared memory" : v === "banks" ? "shared-memory banks" : "registers";
      views.appendChild(opt);
    }
    views.value = shown.view;
    $("viewBox").hidden = shown.views.length < 2;
    const tmem = shown.data.scope === "tmem";
    const colorBy = /** @type {HTMLSelectElement} */ ($("colorBy"));
    colorBy.value = tmem ? "lane" : o.color;
    colorBy.disabled = tmem;
    /** @type {HTMLSelectElement} */ ($("palette")).value = o.palette;
    const lanesInput = /** @type {HTMLInputElement} */ ($("lanes"));
    if (document.activeElement !== lanesInput) lanesInput.value = o.lanes;
    const selector = /** @type {HTMLSelectElement} */ ($("selector"));
    $("selectorBox").hidden = diagrams.length < 2;
    selector.textContent = "";
    for (const d of diagrams) {
      if (d.selector === null) continue;
      const opt = document.createElement("option");
      opt.value = opt.textContent = String(d.selector);
      selector.appendChild(opt);
    }
    if (diagrams.length > 1) selector.value = String(current() ? current().selector : diagrams[0].selector);
    const smem = shown.views.indexOf("smem") >= 0;
    $("majorBox").hidden = $("swizzleBox").hidden = !smem;
    /** @type {HTMLSelectElement} */ ($("major")).value = o.major;
    /** @type {HTMLSelectElement} */ ($("swizzle")).value = o.swizzle;
    /** @type {HTMLSelectElement} */ ($("zoom")).value = o.zoom;
    // A tile: of the atom (its layout), or in the bank view the tiled copy feeding it (with feeds).
    $("tileBox").hidden = $("permBox").hidden = !shown.takes.tile && shown.view !== "banks";
    showWords();
    $("accessBox").hidden = !shown.takes.access;
    $("storeBox").hidden = !shown.takes.store;
    $("smemBox").hidden = $("feedsBox").hidden = shown.view !== "banks";
    // What moves the tiled copy (the app's Move box): the instruction shown or a plain ld.shared, the list the
    // engine names; it applies to a tile's copy only, so it is enabled while a tile is set.
    const copy = /** @type {HTMLSelectElement} */ ($("copy"));
    $("copyBox").hidden = shown.view !== "banks";
    copy.textContent = "";
    for (const name of [""].concat(shown.copies || [])) {
      const opt = document.createElement("option");
      opt.value = name;
      opt.textContent = name || shown.opcode;
      copy.appendChild(opt);
    }
    copy.value = o.copy;
    copy.disabled = !o.atoms && !o.perm;
    // The feeds verdict (`banks --feeds`): every register slot holds what the operand wants, or how many do
    // not (framed in red in the picture), in the report's words.
    const verdict = $("feedVerdict");
    verdict.hidden = !shown.feed;
    if (shown.feed) {
      const f = shown.feed;
      verdict.textContent = "Feeds " + f.consumer + (f.move ? " by " + f.move : "") + ": " + (f.mismatches === 0
        ? "every register slot holds what the operand wants"
        : "MISMATCH in " + f.mismatches + " of " + f.slots + " register slots (framed in red)") + ". ";
      // The check's report (each thread's address, each slot loaded and wanted), folded: it is long.
      const more = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "the check, slot by slot";
      const pre = document.createElement("pre");
      pre.textContent = f.report;
      more.append(summary, pre);
      verdict.appendChild(more);
      verdict.className = "evidence" + (f.mismatches === 0 ? " confirmed" : " error");
    }
    // A pasted layout exports as `lanemap-cli show` writes it: SVG (and PNG from it), JSON, text.
    const format = /** @type {HTMLSelectElement} */ ($("format"));
    for (const opt of Array.from(format.options))
      opt.disabled = !!shown.paste && ["svg", "png", "json", "txt"].indexOf(opt.value) < 0;
    if (format.selectedOptions[0] && format.selectedOptions[0].disabled) format.value = "svg";
    $("compareBox").hidden = shown.view !== "layout" || !!shown.paste;
    $("operandBox").hidden = !shown.compare || shown.compare.report === undefined;
    /** @type {HTMLSelectElement} */ ($("operand")).value = o.operand;
    for (const id of ["atoms", "perm", "ld", "st", "smem", "feeds", "compare"]) {
      const input = /** @type {HTMLInputElement} */ ($(id));
      if (document.activeElement !== input) input.value = /** @type {any} */ (o)[id];
    }
  }

  // A family's own words (a TMA box's tensor map: type=bf16 tensor=64x64 box=16x64 swizzle=128B ...), one
  // field each as the engine names them; a change writes the spec with them, which the engine reads as
  // `lanemap-cli show 'SPEC WORDS'` does (its grammar's message when a word does not read).
  function showWords() {
    const box = $("wordsBox");
    const words = shown.paste ? [] : shown.words || [];
    box.hidden = !words.length;
    if (box.dataset.spec === shown.spec) return; // as shown: keep the fields (and the focus)
    box.dataset.spec = shown.spec;
    box.textContent = "";
    for (const w of words) {
      const label = document.createElement("label");
      label.append(w.key + " ");
      const input = document.createElement("input");
      input.value = w.value;
      input.size = Math.max(4, w.value.length + 1);
      input.spellcheck = false;
      input.dataset.key = w.key;
      input.title = "The spec's word " + w.key + "=, as lanemap-cli show reads it (docs/tma.md#grammar)";
      input.addEventListener("change", function () {
        const typed = Array.from(box.querySelectorAll("input")).map(function (el) {
          const i = /** @type {HTMLInputElement} */ (el);
          return i.dataset.key + "=" + i.value.replace(/\s+/g, "");
        });
        go({ spec: shown.opcode + " " + typed.join(" "), cell: null, options: Object.assign({}, state.options, { sel: "" }) });
      });
      label.appendChild(input);
      box.appendChild(label);
    }
  }

  /** @param {string} text @returns {Set<number>|null} "0-3,13" -> a set; throws naming the bad part */
  function parseLanes(text) {
    const set = new Set();
    const limit = shown ? shown.data.threads : 32;
    for (const part of text.split(",")) {
      const p = part.trim();
      if (!p) continue;
      const m = /^(\d+)(?:-(\d+))?$/.exec(p);
      if (!m) throw new Error("Lanes: '" + p + "' is not a lane or a range like 0-3");
      const lo = Number(m[1]), hi = m[2] === undefined ? lo : Number(m[2]);
      if (hi < lo || hi >= limit) throw new Error("Lanes: '" + p + "': lanes are 0.." + (limit - 1));
      for (let t = lo; t <= hi; ++t) set.add(t);
    }
    return set.size ? set : null;
  }

  // ---- The catalog list and its search ----
  /** @type {HTMLAnchorElement[]} */
  let links = [];
  function buildCatalog() {
    const list = $("results");
    const frag = document.createDocumentFragment();
    let family = "";
    catalog.forEach(function (row) {
      if (row.family !== family) {
        family = row.family;
        const h = document.createElement("li");
        h.className = "family";
        h.textContent = family;
        frag.appendChild(h);
      }
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = hashOf({ spec: row.spec, cell: null, options: DEFAULTS });
      a.textContent = row.spec;
      a.title = row.ptx + " (sm_" + row.sm + ")";
      li.appendChild(a);
      frag.appendChild(li);
      links.push(a);
    });
    list.appendChild(frag);
    $("count").textContent = catalog.length + " variants";
  }
  /** @param {string} query */
  function filter(query) {
    const matches = new Set(engine.search(query).matches);
    links.forEach(function (a, i) {
      /** @type {HTMLElement} */ (a.parentElement).hidden = !matches.has(i);
    });
    // A family heading stays while one of its rows does.
    for (const h of Array.from(document.querySelectorAll("#results li.family"))) {
      let n = h.nextElementSibling, any = false;
      while (n && !n.classList.contains("family")) {
        if (!(/** @type {HTMLElement} */ (n)).hidden) any = true;
        n = n.nextElementSibling;
      }
      /** @type {HTMLElement} */ (h).hidden = !any;
    }
    $("count").textContent = matches.size + " of " + catalog.length + " variants";
  }
  function markCurrent() {
    const list = $("catalog");
    for (const a of links) {
      if (a.textContent !== state.spec) {
        a.removeAttribute("aria-current");
        continue;
      }
      a.setAttribute("aria-current", "page");
      // In sight in the list (the list scrolls, not the page).
      const top = a.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - a.offsetHeight)
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }

  // ---- The descriptor decoder: #decode/<wgmma|smem|idesc>/<value>[/<kind>] ----
  /** @param {string} what @param {string} value @param {string} kind */
  function showDecoded(what, value, kind) {
    /** @type {HTMLSelectElement} */ ($("decodeWhat")).value = what;
    /** @type {HTMLSelectElement} */ ($("decodeKind")).value = kind;
    /** @type {HTMLInputElement} */ ($("decodeValue")).value = value;
    $("decodeKindBox").hidden = what !== "idesc";
    const table = /** @type {HTMLTableElement} */ ($("decoded"));
    const body = /** @type {HTMLElement} */ (table.tBodies[0]);
    body.textContent = "";
    $("broken").textContent = "";
    const answer = engine.decode(what, value, kind);
    if (answer.error) {
      showError(answer.error);
      table.hidden = true;
      return;
    }
    for (const f of answer.fields) {
      const tr = document.createElement("tr");
      for (const t of [f.high === f.low ? String(f.low) : f.high + "\u2013" + f.low, f.name,
                       "0x" + Number(f.raw).toString(16), f.meaning]) {
        const td = document.createElement("td");
        td.textContent = t;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    for (const b of answer.broken) {
      const li = document.createElement("li");
      li.textContent = b;
      $("broken").appendChild(li);
    }
    table.hidden = false;
    document.title = "decode " + value + " \u2014 lanemap";
  }
  $("decodeWhat").addEventListener("change", function (ev) {
    $("decodeKindBox").hidden = /** @type {HTMLSelectElement} */ (ev.target).value !== "idesc";
  });
  $("decodeForm").addEventListener("submit", function (ev) {
    ev.preventDefault();
    const what = /** @type {HTMLSelectElement} */ ($("decodeWhat")).value;
    const value = /** @type {HTMLInputElement} */ ($("decodeValue")).value.trim();
    const kind = /** @type {HTMLSelectElement} */ ($("decodeKind")).value;
    go({ spec: "decode/" + what + "/" + value + (what === "idesc" ? "/" + kind : ""), cell: null,
         options: Object.assign({}, DEFAULTS) });
  });

  // ---- The descriptor encoder: #encode/<wgmma|smem|idesc>?<field>=<value>&... ----
  // The fields, their choices and the rules come from the engine (the core's encoders); the page lays out
  // what it answers. `shown`: the encoder is the view (its value and rules are listed); else only the form.
  /** @param {Encode} e @param {boolean} asView */
  function showEncoded(e, asView) {
    const what = /** @type {HTMLSelectElement} */ ($("encodeWhat"));
    const answer = engine.encode(e);
    if (answer.error) {
      // Not a descriptor the engine knows: its message, and the form of the one picked.
      showError(answer.error);
      $("encoded").hidden = true;
      $("encodedFields").hidden = true;
      $("encodeRules").textContent = "";
      return;
    }
    what.value = e.what;
    const given = new Map(e.fields);
    const box = $("encodeFields");
    box.textContent = "";
    /** @type {Map<string, HTMLElement>} */
    const inputs = new Map();
    for (const f of answer.form) {
      const label = document.createElement("label");
      label.append(f.label + " ");
      /** @type {HTMLInputElement|HTMLSelectElement} */
      let input;
      const value = given.has(f.key) ? /** @type {string} */ (given.get(f.key)) : (f.value === null ? "" : f.value);
      if (f.choices) {
        const select = document.createElement("select");
        for (const c of f.choices) {
          const o = document.createElement("option");
          o.textContent = c;
          select.appendChild(o);
        }
        // A value typed into the address that is not a choice stays, to be seen and corrected.
        if (f.choices.indexOf(value) < 0) {
          const o = document.createElement("option");
          o.textContent = value;
          select.appendChild(o);
        }
        select.value = value;
        input = select;
      } else {
        const text = document.createElement("input");
        text.size = 8;
        text.spellcheck = false;
        text.value = value;
        input = text;
      }
      input.name = f.key;
      input.dataset.key = f.key;
      input.addEventListener("change", function () { encodeFromForm(f.key); });
      label.appendChild(input);
      box.appendChild(label);
      inputs.set(f.key, input);
    }
    const rules = $("encodeRules");
    rules.textContent = "";
    const table = /** @type {HTMLTableElement} */ ($("encodedFields"));
    const body = /** @type {HTMLElement} */ (table.tBodies[0]);
    body.textContent = "";
    if (!asView) {
      $("encoded").hidden = true;
      table.hidden = true;
      return;
    }
    for (const r of answer.rules) {
      const li = document.createElement("li");
      li.textContent = (r.field ? r.field + ": " : "") + r.rule;
      li.id = "rule-" + r.key;
      rules.appendChild(li);
      const input = inputs.get(r.key);
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", li.id);
      }
    }
    document.body.dataset.broken = String(answer.rules.length);
    $("encoded").hidden = answer.value === undefined;
    table.hidden = answer.value === undefined;
    if (answer.value !== undefined) {
      $("encodedValue").textContent = answer.value;
      const kind = e.what === "idesc" ? "/" + /** @type {HTMLSelectElement} */ (inputs.get("kind")).value : "";
      /** @type {HTMLAnchorElement} */ ($("encodedDecode")).href = "#decode/" + e.what + "/" + answer.value + kind;
      for (const f of answer.fields) {
        const tr = document.createElement("tr");
        for (const t of [f.high === f.low ? String(f.low) : f.high + "\u2013" + f.low, f.name,
                         "0x" + Number(f.raw).toString(16), f.meaning]) {
          const td = document.createElement("td");
          td.textContent = t;
          tr.appendChild(td);
        }
        body.appendChild(tr);
      }
    }
    document.title = "encode " + (answer.value || e.what) + " \u2014 lanemap";
  }
  // The form's fields into the address. A new kind drops the types, which then default to the kind's.
  /** @param {string} changed the key of the field changed ("" for the form's submit) */
  function encodeFromForm(changed) {
    const what = /** @type {HTMLSelectElement} */ ($("encodeWhat")).value;
    /** @type {[string, string][]} */
    const fields = [];
    for (const el of Array.from($("encodeFields").querySelectorAll("input, select"))) {
      const input = /** @type {HTMLInputElement} */ (el);
      const key = /** @type {string} */ (input.dataset.key);
      if (changed === "kind" && (key === "a" || key === "b" || key === "d" || key === "scale")) continue;
      fields.push([key, input.value.trim()]);
    }
    /** @type {ViewState} */
    const next = { spec: "encode/" + what, cell: null, options: Object.assign({}, DEFAULTS),
                   encode: { what: what, fields: fields } };
    // Enter in a field both changes it and submits the form: one history entry.
    if (hashOf(next) !== hashOf(state)) go(next);
  }
  $("encodeWhat").addEventListener("change", function () {
    const what = /** @type {HTMLSelectElement} */ ($("encodeWhat")).value;
    go({ spec: "encode/" + what, cell: null, options: Object.assign({}, DEFAULTS), encode: { what: what, fields: [] } });
  });
  $("encodeForm").addEventListener("submit", function (ev) {
    ev.preventDefault();
    encodeFromForm("");
  });

  // ---- A pasted layout: #paste/<text>?shape=..&against=SPEC:OPERAND ----
  /** @param {Paste} p the form shows the layout in the address (not while it is being edited) */
  function pasteFields(p) {
    const fields = /** @type {[string, string][]} */ ([["pasteText", p.text], ["pasteShape", p.shape],
                                                      ["pasteAgainst", p.against], ["pasteBeside", p.beside]]);
    for (const [id, value] of fields) {
      const el = /** @type {HTMLInputElement} */ ($(id));
      if (document.activeElement !== el || el.value === "") el.value = value;
    }
  }
  // Byte `bytes` of `text` in UTF-8 (the engine counts bytes) as an index into the JS string.
  /** @param {string} text @param {number} bytes */
  function charIndex(text, bytes) {
    let b = 0, i = 0;
    while (i < text.length && b < bytes) {
      const c = /** @type {number} */ (text.codePointAt(i));
      b += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      i += c >= 0x10000 ? 2 : 1;
    }
    return i;
  }
  // Where the text does not read, as the CLI shows it: the message, the line and a caret under the column;
  // the cursor is put on it. null clears it.
  /** @param {any} answer */
  function showPasteError(answer) {
    const box = $("pasteError");
    const fields = ["pasteText", "pasteShape", "pasteAgainst", "pasteBeside"];
    for (const id of fields) $(id).removeAttribute("aria-invalid");
    box.textContent = "";
    box.hidden = !answer;
    document.body.dataset.pasteError = answer ? answer.error : "";
    if (!answer) return;
    const head = document.createElement("div");
    head.textContent = (answer.field === "shape" ? "Shape: " : answer.field === "beside" ? "Beside: "
      : "Cannot read the layout: ") + answer.error;
    box.appendChild(head);
    const field = answer.field === "shape" ? "pasteShape" : answer.field === "beside" ? "pasteBeside" : "pasteText";
    $(field).setAttribute("aria-invalid", "true");
    if (answer.lineText !== undefined) {
      const line = String(answer.lineText);
      const pre = document.createElement("pre");
      pre.textContent = line + "\n" + " ".repeat(charIndex(line, answer.column - 1)) + "^";
      box.appendChild(pre);
      const area = /** @type {HTMLTextAreaElement} */ ($("pasteText"));
      const at = charIndex(area.value, answer.offset);
      if (document.activeElement === area || document.activeElement === document.body)
        area.setSelectionRange(at, Math.min(area.value.length, at + 1));
    }
  }
  // identify's and check's answers: the catalog operands it equals (or the nearest), each a link to its view
  // and to a compare with it; the verdict of the compare asked for, in both notations.
  function pasteResult() {
    const p = shown.paste, out = $("pasteResult");
    out.textContent = "";
    /** @param {string} spec @param {string} operand */
    const compareLink = function (spec, operand) {
      const a = document.createElement("a");
      a.href = hashOf({ spec: "paste", cell: null, options: state.options,
                        paste: { text: state.paste ? state.paste.text : "", shape: state.paste ? state.paste.shape : "",
                                 against: spec + ":" + operand, beside: "" } });
      a.textContent = "compare";
      a.className = "compare";
      return a;
    };
    /** @param {any} m @param {string} tail */
    const item = function (m, tail) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = hashOf({ spec: m.spec, cell: null, options: DEFAULTS });
      a.textContent = m.spec + " " + m.operand;
      li.appendChild(a);
      li.appendChild(document.createTextNode((m.confirmed ? " (hardware-confirmed)" : "") + tail + " \u00b7 "));
      li.appendChild(compareLink(m.spec, m.operand));
      return li;
    };
    if (p.beside) {
      // Beside an instruction: its picture on the left, a lane hovered lit in both.
      const beside = document.createElement("p");
      beside.id = "beside";
      beside.append("Beside ");
      const a = document.createElement("a");
      a.href = hashOf({ spec: p.beside, cell: null, options: DEFAULTS });
      a.textContent = p.beside;
      beside.append(a, " (left): hover a cell, and its lane lights in both.");
      out.appendChild(beside);
    }
    if (p.identify) {
      const id = p.identify;
      const head = document.createElement("p");
      const list = document.createElement("ul");
      list.id = "identified";
      if (id.equal.length) {
        head.textContent = "Equal to " + id.equal.length + " catalog operand" + (id.equal.length === 1 ? "" : "s") +
          " (the same (thread, value) in every cell):";
        for (const m of id.equal) list.appendChild(item(m, ""));
      } else if (id.nearest.length) {
        head.textContent = "Equal to no catalog operand; the nearest of its threads, values and shape:";
        for (const m of id.nearest)
          list.appendChild(item(m, ": " + m.differing + " of " + m.cells + " cells differ" +
            (m.sameThreads ? " (" + m.sameThreads + " held by the same threads under other value numbers)" : "")));
      } else {
        head.textContent = "Equal to no catalog operand, and no operand has its threads and values.";
      }
      out.appendChild(head);
      if (list.children.length > 6) {
        // Many variants share a layout (every type of an accumulator): the first few, the rest on demand.
        const more = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = (list.children.length - 5) + " more";
        more.appendChild(summary);
        const rest = document.createElement("ul");
        while (list.children.length > 5) rest.insertBefore(/** @type {Node} */ (list.lastChild), rest.firstChild);
        more.appendChild(rest);
        out.appendChild(list);
        out.appendChild(more);
      } else if (list.children.length) out.appendChild(list);
    } else if (p.shared) {
      const note = document.createElement("p");
      note.textContent = "A swizzled layout is no thread-value layout: compare it with a wgmma's A or B " +
        "(wgmma.m64n64k16.f16:B) to check its bytes.";
      out.appendChild(note);
    }
    if (p.check) {
      const c = p.check;
      const pre = document.createElement("pre");
      pre.id = "checked";
      pre.className = "verdict " + (c.error ? "differs" : c.equal ? "equal" : "differs");
      pre.textContent = c.error ? "Compare with " + state.paste.against + ": " + c.error
        : c.text + c.hardware + (!c.equal && shown.marks && shown.marks.some((m) => m.length) ? "\nThe differing cells are framed in red." : "");
      out.appendChild(pre);
      if (!c.error && c.spec) {
        const a = document.createElement("a");
        a.href = hashOf({ spec: c.spec, cell: null, options: DEFAULTS });
        a.textContent = "Open " + c.spec;
        out.appendChild(a);
      }
    }
  }
  /** @param {Paste} p */
  function submitPaste(p) {
    // A text larger than the engine reads is refused before it goes into the address.
    if (new TextEncoder().encode(p.text).length > 65536) {
      const answer = engine.paste(p);
      showPasteError(answer.error ? answer : { error: "the layout is too large" });
      return;
    }
    go({ spec: "paste", cell: null, options: Object.assign({}, DEFAULTS, { color: state.options.color,
         palette: state.options.palette, zoom: state.options.zoom }), paste: p });
  }
  $("pasteForm").addEventListener("submit", function (ev) {
    ev.preventDefault();
    submitPaste({ text: /** @type {HTMLTextAreaElement} */ ($("pasteText")).value,
                  shape: /** @type {HTMLInputElement} */ ($("pasteShape")).value.trim(),
                  against: /** @type {HTMLInputElement} */ ($("pasteAgainst")).value.trim(),
                  beside: /** @type {HTMLInputElement} */ ($("pasteBeside")).value.trim() });
  });
  $("pasteText").addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      /** @type {HTMLFormElement} */ ($("pasteForm")).requestSubmit();
    }
  });

  // ---- Exports ----
  /** @param {string} name @param {Blob} blob */
  function save(name, blob) {
    document.body.dataset.lastDownload = name;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }
  function download() {
    const format = /** @type {HTMLSelectElement} */ ($("format")).value;
    const base = state.paste ? "layout" : state.spec.replace(/[^A-Za-z0-9._-]+/g, "_");
    const wanted = format === "png" ? "svg" : format;
    // A pasted layout: what `lanemap-cli show --format svg|txt|json` writes.
    const answer = state.paste ? engine.pasteExport(state.paste, wanted)
      : engine.exportDocument(state.spec, engineOptions(state.options), wanted);
    if (answer.error || answer.document === undefined) {
      setStatus(answer.error || "export failed");
      return;
    }
    document.body.dataset.lastExport = answer.document.slice(0, 200);
    if (format !== "png") {
      save(base + "." + answer.extension, new Blob([answer.document], { type: "text/plain" }));
      setStatus("saved " + base + "." + answer.extension);
      return;
    }
    // PNG: the engine's SVG (what the app and the CLI export) rasterised by the browser.
    const img = new Image();
    img.onload = function () {
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d"));
      g.drawImage(img, 0, 0);
      c.toBlob(function (blob) {
        if (!blob) return;
        save(base + ".png", blob);
        setStatus("saved " + base + ".png");
      }, "image/png");
    };
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(answer.document);
  }

  // ---- Pointer and keyboard ----
  sizer.addEventListener("mousemove", function (ev) {
    const ref = eventRef(ev);
    if (!same(ref, hover)) {
      hover = ref;
      overlay();
    }
  });
  sizer.addEventListener("mouseleave", function () {
    hover = null;
    overlay();
  });
  // The picture takes the keyboard focus on a press without scrolling the page (a scroll between the press
  // and the release would pin another cell than the one pressed).
  sizer.addEventListener("mousedown", function (ev) {
    ev.preventDefault();
    box.focus({ preventScroll: true });
  });
  sizer.addEventListener("click", function (ev) {
    const ref = eventRef(ev);
    pin(ref && !same(ref, pinned) ? ref : null);
  });
  /** @param {[number, number]|null} ref */
  function pin(ref) {
    go({ spec: state.spec, cell: ref ? cellRef(ref) : null, options: state.options, paste: state.paste });
  }
  // The cell next to `ref` in a direction, skipping positions no cell covers.
  /** @param {[number, number]} ref @param {number} dr @param {number} dc */
  function step(ref, dr, dc) {
    const p = current().panels[ref[0]];
    const c = cell(ref);
    let r = c.row, col = dc > 0 ? c.colLast : c.col;
    for (let n = 0; n < Math.max(p.rows, p.cols); ++n) {
      r += dr;
      col += dc;
      if (r < 0 || col < 0 || r >= p.rows || col >= p.cols) return ref;
      const list = p.grid.get(r * p.cols + col);
      if (list && list.length) return /** @type {[number, number]} */ ([ref[0], list[0]]);
    }
    return ref;
  }
  /** @param {number} delta */
  function switchPanel(delta) {
    const d = current();
    const from = cursor || pinned || [0, 0];
    const c = cell(/** @type {[number, number]} */ (from));
    for (let k = 1; k <= d.panels.length; ++k) {
      const pi = (from[0] + delta * k + d.panels.length * k) % d.panels.length;
      const p = d.panels[pi];
      if (!p.count) continue;
      const r = Math.min(c.row, p.rows - 1), col = Math.min(c.col, p.cols - 1);
      const list = p.grid.get(r * p.cols + col);
      return /** @type {[number, number]} */ ([pi, list && list.length ? list[0] : 0]);
    }
    return from;
  }
  box.addEventListener("keydown", function (ev) {
    if (!shown || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const d = current();
    /** @type {[number, number]|null} */
    let next = null;
    const from = cursor || pinned;
    const start = function () {
      for (let pi = 0; pi < d.panels.length; ++pi)
        if (d.panels[pi].count) return /** @type {[number, number]} */ ([pi, 0]);
      return null;
    };
    switch (ev.key) {
    case "ArrowUp": next = from ? step(from, -1, 0) : start(); break;
    case "ArrowDown": next = from ? step(from, 1, 0) : start(); break;
    case "ArrowLeft": next = from ? step(from, 0, -1) : start(); break;
    case "ArrowRight": next = from ? step(from, 0, 1) : start(); break;
    case "o": case "O": next = from ? switchPanel(ev.shiftKey ? -1 : 1) : start(); break;
    case "Enter": case " ":
      if (cursor) pin(same(cursor, pinned) ? null : cursor);
      ev.preventDefault();
      return;
    case "Escape":
      cursor = null;
      pin(null);
      ev.preventDefault();
      return;
    default: return;
    }
    ev.preventDefault();
    if (next) {
      cursor = next;
      hover = null;
      reveal(next);
      overlay();
    }
  });
  box.addEventListener("blur", function () {
    cursor = null;
    if (shown) overlay();
  });
  box.addEventListener("focus", function () { if (shown) overlay(); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== $("search") && !(ev.target instanceof HTMLInputElement) &&
        !(ev.target instanceof HTMLTextAreaElement)) {
      ev.preventDefault();
      $("search").focus();
    }
  });
  $("unpin").addEventListener("click", function () { pin(null); });
  $("view").addEventListener("change", function (ev) {
    go({ spec: state.spec, cell: null, options: Object.assign({}, state.options,
         { view: /** @type {HTMLSelectElement} */ (ev.target).value, sel: "" }) });
  });
  for (const [id, key] of [["colorBy", "color"], ["palette", "palette"], ["major", "major"], ["swizzle", "swizzle"],
                           ["operand", "operand"],
                           ["zoom", "zoom"], ["selector", "sel"]])
    $(id).addEventListener("change", function (ev) {
      setOptions({ [key]: /** @type {HTMLSelectElement} */ (ev.target).value });
    });
  for (const id of ["atoms", "perm", "ld", "st", "smem", "feeds", "compare", "copy"])
    $(id).addEventListener("change", function (ev) {
      const options = Object.assign({}, state.options,
                                    { [id]: /** @type {HTMLInputElement} */ (ev.target).value.replace(/\s+/g, ""), sel: "" });
      // Without a tile there is no tiled copy to move: its mover goes with it (the picker is disabled).
      if (!options.atoms && !options.perm) options.copy = "";
      go({ spec: state.spec, cell: null, options: options });
    });
  $("lanes").addEventListener("change", function (ev) {
    setOptions({ lanes: /** @type {HTMLInputElement} */ (ev.target).value.replace(/\s+/g, "") });
  });
  $("copyLink").addEventListener("click", function () {
    const url = location.href;
    const done = function () { setStatus("link copied"); };
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, function () { setStatus(url); });
    else setStatus(url);
  });
  $("download").addEventListener("click", download);
  let searchTimer = 0;
  $("search").addEventListener("input", function (ev) {
    clearTimeout(searchTimer);
    const q = /** @type {HTMLInputElement} */ (ev.target).value;
    searchTimer = window.setTimeout(function () { filter(q); }, 60);
  });
  $("search").addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter") return;
    // Enter opens the first match, or what was typed when it is a spec or a PTX string.
    const first = links.find(function (a) { return !(/** @type {HTMLElement} */ (a.parentElement)).hidden; });
    const typed = /** @type {HTMLInputElement} */ (ev.target).value.trim();
    const exact = catalog.some(function (r) { return r.spec === typed; });
    go({ spec: exact || !first ? typed : /** @type {string} */ (first.textContent), cell: null,
         options: Object.assign({}, DEFAULTS) });
  });
  window.addEventListener("popstate", function () { apply(parseHash(location.hash)); });
  window.addEventListener("hashchange", function () {
    // A link clicked in the page (the catalog) or typed: a new history entry already.
    const next = parseHash(location.hash);
    if (hashOf(next) !== hashOf(state)) apply(next);
  });
  let pending = false;
  function later() {
    if (pending || !shown) return;
    pending = true;
    requestAnimationFrame(function () {
      pending = false;
      sync();
    });
  }
  box.addEventListener("scroll", later);
  window.addEventListener("resize", later);

  // For scripted checks (tests/web): where a cell is on screen, after scrolling it into view.
  /** @type {any} */ (window).lanemapApp = {
    state: function () { return state; },
    hashOf: hashOf,
    // The fill the page paints a cell with (tests compare it with the Diagram's).
    fillOf: function (/** @type {string} */ operand, /** @type {number} */ row, /** @type {number} */ col) {
      const ref = findCell(operand, row, col);
      return ref ? colors(cell(ref))[0] : null;
    },
    cellCount: function () {
      return current().panels.reduce(function (/** @type {number} */ n, /** @type {any} */ p) { return n + p.count; }, 0);
    },
    parseHash: parseHash,
    clientPoint: function (/** @type {string} */ operand, /** @type {number} */ row, /** @type {number} */ col,
                           /** @type {number|undefined} */ nth) {
      const ref = findCell(operand, row, col, nth);
      if (!ref) return null;
      reveal(ref);
      sync();
      box.scrollIntoView({ block: "nearest" });
      const c = cell(ref);
      const r = sizer.getBoundingClientRect();
      return { x: r.left + (c.x + c.w / 2) * zoom, y: r.top + (c.y + c.h / 2) * zoom };
    },
  };

  // ---- Start ----
  /** @type {any} */ (window).LanemapEngine().then(function (/** @type {any} */ module) {
    engine = new Engine(module);
    catalog = engine.catalog().variants;
    $("version").textContent = "lanemap " + engine.call("version").version;
    buildCatalog();
    document.body.dataset.engineMs = String(Math.round(performance.now() - t0));
    apply(parseHash(location.hash));
    document.body.dataset.readyMs = String(Math.round(performance.now() - t0));
    document.body.dataset.ready = "1";
  }, function (/** @type {any} */ e) {
    showError("The engine did not load: " + e + ". The page needs a browser with WebAssembly exceptions " +
              "(Chromium 95+, Firefox 100+, Safari 15.2+), served over http(s) (docs/web.md).");
    document.body.dataset.ready = "1";
  });
})();
