// A variant page of the lanemap static site: draws the core Diagram(s) in LANEMAP (written by
// core/src/export_html.cpp) on a canvas, the way the app paints them (include/lanemap/diagram.hpp, "Painting,
// in order"), and adds the app's interaction: hover lights the lane in every operand and shows the cell's
// details, a click pins the cell (Esc or Unpin releases it) and puts it in the address (#A:3,11), colour-by,
// palette, lane filter and the sparsity selector.
"use strict";
(function () {
  const SANS = '"Helvetica Neue",Helvetica,Arial,"Liberation Sans","DejaVu Sans",sans-serif';
  const MONO = '"DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono","Courier New",monospace';
  const DIM_FILL = "#f0f0f0", DIM_TEXT = "#a0a0a0"; // cells outside the lane filter, as the SVG greys them
  // Fields of one cell in a panel's flat array (cellFields in export_html.cpp).
  const F = { x: 0, y: 1, w: 2, h: 3, thread: 4, element: 5, reg: 6, bitLo: 7, bitHi: 8, row: 9, col: 10,
              colLast: 11, matrix: 12, owners: 13, source: 14 };
  const STRIDE = 15;

  // Panels written as null are the first selector's (identical cells): share them.
  const diagrams = LANEMAP.diagrams.map(function (d) {
    const panels = d.panels.map(function (p, i) { return p || LANEMAP.diagrams[0].panels[i]; });
    const byThread = new Map();
    panels.forEach(function (p, pi) {
      if (!p.grid) {
        const n = p.cells.length / STRIDE;
        p.count = n;
        p.grid = new Map(); // row * cols + col -> cell indices covering it
        for (let i = 0; i < n; ++i) {
          const at = i * STRIDE;
          for (let c = p.cells[at + F.col]; c <= p.cells[at + F.colLast]; ++c) {
            const key = p.cells[at + F.row] * p.cols + c;
            if (!p.grid.has(key)) p.grid.set(key, []);
            p.grid.get(key).push(i);
          }
        }
      }
      for (let i = 0; i < p.count; ++i) {
        const t = p.cells[i * STRIDE + F.thread];
        if (!byThread.has(t)) byThread.set(t, []);
        byThread.get(t).push([pi, i]);
      }
    });
    return { width: d.width, height: d.height, selector: d.selector, texts: d.texts, lines: d.lines,
             bitFields: d.bitFields, panels: panels, byThread: byThread };
  });

  // The selects open at what the page was written with (export --color, --palette).
  const state = { diagram: 0, colorBy: document.getElementById("colorBy").value,
                  palette: document.getElementById("palette").value, lanes: null, hover: null, pinned: null,
                  zoom: 1 };
  // Below this size on screen a cell's label is not drawn (unreadable); its colour and tooltip stay.
  const LABEL_MIN_PX = 6;
  // A tile's threads are a CTA's: each is named with its warp and lane (and warpgroup).
  const CTA = LANEMAP.scope === "cta";
  // Only the visible part of the picture is drawn (the largest wgmma page is 16 000 px wide): the canvas is
  // the size of the scroll box and follows its scroll position over a sizer as large as the picture.
  const box = document.getElementById("diagram");
  const sizer = document.getElementById("sizer");
  const canvas = document.getElementById("canvas");
  const ctx = canvas.getContext("2d");
  const details = document.getElementById("details");
  const unpin = document.getElementById("unpin");
  const dpr = window.devicePixelRatio || 1;
  const HINT = details.innerHTML;
  let view = { x: 0, y: 0, w: 0, h: 0 };

  function current() { return diagrams[state.diagram]; }
  function cell(ref) {
    const p = current().panels[ref[0]];
    const at = ref[1] * STRIDE;
    const c = {};
    for (const k in F) c[k] = p.cells[at + F[k]];
    c.panel = ref[0];
    c.index = ref[1];
    c.operand = p.operand;
    c.lane = c.thread % 32;
    // Memory panels carry the key their view colours by (a chunk's bank group): lane colours show it.
    c.key = p.keys ? p.keys[ref[1]] : undefined;
    c.tip = p.tips[ref[1]];
    // A bare panel draws no labels (its headers name every cell), and some panels label only some cells
    // (""); such a cell's name is its tooltip's first field.
    c.drawn = !p.bare && p.labels[ref[1]] !== "";
    c.label = c.drawn ? p.labels[ref[1]] : c.tip.split(" \u00b7 ")[0];
    return c;
  }
  function colorKey(c) {
    if (state.colorBy === "register") return c.reg;
    if (state.colorBy === "group") return (c.thread % 32) >> 2;
    if (state.colorBy === "warp") return Math.floor(c.thread / 32);
    if (state.colorBy === "warpgroup") return Math.floor(c.thread / 128);
    if (state.colorBy === "thread") return c.thread;
    return c.key !== undefined ? c.key : c.thread % 32;
  }
  function colors(c) {
    if (state.lanes && !state.lanes.has(c.thread)) return [DIM_FILL, DIM_TEXT];
    const table = LANEMAP.palettes[state.palette][state.colorBy];
    return table[colorKey(c) % table.length];
  }
  function font(size, bold, mono) { return (bold ? "bold " : "") + size + "px " + (mono ? MONO : SANS); }

  function drawCell(g, c, outline) {
    const col = colors(c);
    g.fillStyle = col[0];
    g.fillRect(c.x, c.y, c.w, c.h);
    g.strokeStyle = outline ? "#000" : "#fff";
    g.lineWidth = outline ? 2.5 : 1;
    g.strokeRect(c.x + 0.5, c.y + 0.5, c.w - 1, c.h - 1);
    if (c.w >= 8 && c.drawn && LANEMAP.cellFont * state.zoom >= LABEL_MIN_PX) {
      g.fillStyle = col[1];
      g.font = font(LANEMAP.cellFont, false, true);
      g.textAlign = "center";
      g.fillText(c.label, c.x + c.w / 2, c.y + Math.round(c.h / 2 + LANEMAP.cellFont * 0.35), c.w - 2);
    }
  }
  function drawField(g, b, f, outline) {
    const p = current().panels[f[7]];
    const c = f[6] >= 0 && p ? cell([f[7], f[6]]) : null;
    const col = c ? colors(c) : ["#fff", "#111"];
    g.fillStyle = col[0];
    g.fillRect(f[0], f[1], f[2], f[3]);
    g.strokeStyle = outline ? "#000" : "#222";
    g.lineWidth = outline ? 2.5 : 1.5;
    g.strokeRect(f[0], f[1], f[2], f[3]);
    const size = LANEMAP.cellFont - 1, lineH = size + 2;
    const y1 = f[1] + f[3] / 2 - lineH / 2 + size * 0.35;
    g.fillStyle = col[1];
    g.font = font(size, false, true);
    g.textAlign = "center";
    g.fillText(f[4], f[0] + f[2] / 2, y1, f[2]);
    g.fillText(f[5], f[0] + f[2] / 2, y1 + lineH, f[2]);
  }

  function visible(x, y, w, h) {
    return x < view.x + view.w && x + w > view.x && y < view.y + view.h && y + h > view.y;
  }
  // Cells of panel p inside the view, each once (a chunk spans several columns).
  function visibleCells(pi, each) {
    const p = current().panels[pi];
    const c0 = Math.max(0, Math.floor((view.x - p.x) / p.cw)), c1 = Math.min(p.cols - 1, Math.floor((view.x + view.w - p.x) / p.cw));
    const r0 = Math.max(0, Math.floor((view.y - p.y) / p.ch)), r1 = Math.min(p.rows - 1, Math.floor((view.y + view.h - p.y) / p.ch));
    for (let r = r0; r <= r1; ++r)
      for (let c = c0; c <= c1; ++c)
        for (const i of p.grid.get(r * p.cols + c) || [])
          if (c === Math.max(c0, p.cells[i * STRIDE + F.col])) each(i);
  }

  // The Diagram's painting order (include/lanemap/diagram.hpp); the legend is HTML, above the picture.
  // With a lit thread (hover, else pin) the other cells fade and the lit ones are outlined.
  function draw() {
    const d = current();
    const thread = litThread();
    const g = ctx;
    const s = dpr * state.zoom;
    g.setTransform(s, 0, 0, s, -view.x * s, -view.y * s);
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
    const lit = [];
    d.panels.forEach(function (p, pi) {
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
        drawField(g, b, f, mine);
      }
    g.globalAlpha = 1;
    for (const c of lit) drawCell(g, c, true);
    for (const l of d.lines) {
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
      g.font = font(LANEMAP.cellFont + 2, true, true);
      g.fillStyle = "#222";
      g.textAlign = "left";
      g.fillText(b.title, b.tx, b.ty);
    }
    if (state.pinned) {
      const c = cell(state.pinned);
      g.strokeStyle = "#1f6fd1";
      g.lineWidth = 3 / Math.min(1, state.zoom); // 3 pixels at any zoom
      g.strokeRect(c.x - 1.5, c.y - 1.5, c.w + 3, c.h + 3);
    }
  }
  // The canvas covers the scroll box's view of the picture; `view` is that view in the Diagram's units
  // (the zoom scales them to pixels).
  function sync() {
    const d = current();
    const z = state.zoom;
    sizer.style.width = d.width * z + "px";
    sizer.style.height = d.height * z + "px";
    const w = Math.min(d.width * z, box.clientWidth), h = Math.min(d.height * z, box.clientHeight || d.height * z);
    view = { x: box.scrollLeft / z, y: box.scrollTop / z, w: w / z, h: h / z };
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
  function drawBase() {
    legend();
    overlay();
  }

  // The lit thread: the hovered cell's, else the pinned one's.
  function litThread() {
    const ref = state.hover || state.pinned;
    return ref ? cell(ref).thread : null;
  }
  function overlay() {
    const d = current();
    sync();
    const thread = litThread();
    const lit = thread === null ? [] : (d.byThread.get(thread) || []);
    // What the tests (and curious readers) can check without looking at pixels.
    document.body.dataset.litThread = thread === null ? "" : String(thread);
    document.body.dataset.litCells = String(lit.length);
    document.body.dataset.litOperands = Array.from(new Set(lit.map(function (r) {
      return d.panels[r[0]].operand;
    }))).join(" ");
    document.body.dataset.pinned = state.pinned ? linkOf(state.pinned) : "";
    showDetails();
  }

  function holds(thread) {
    const per = new Map();
    for (const ref of current().byThread.get(thread) || []) {
      const c = cell(ref);
      if (!per.has(c.operand)) per.set(c.operand, { n: 0, regs: new Set() });
      per.get(c.operand).n += 1;
      per.get(c.operand).regs.add(c.reg);
    }
    const parts = [];
    per.forEach(function (v, op) {
      parts.push(op + ": " + v.n + (v.n === 1 ? " element" : " elements") + (LANEMAP.scope === "tmem" ? ""
        : " in " + v.regs.size + (v.regs.size === 1 ? " register" : " registers")));
    });
    return parts.join("; ");
  }
  function showDetails() {
    const ref = state.hover || state.pinned;
    details.classList.toggle("pinned", !!state.pinned && !state.hover);
    unpin.disabled = !state.pinned;
    if (!ref) {
      details.innerHTML = HINT;
      return;
    }
    const c = cell(ref);
    const p = current().panels[c.panel];
    const who = LANEMAP.scope === "tmem" ? "TMEM lane " + c.thread
      : CTA ? "CTA thread " + c.thread + " (" + (LANEMAP.atomThreads === 128 ? "warpgroup " +
      Math.floor(c.thread / 128) + ", " : "") + "warp " + Math.floor(c.thread / 32) + ", lane " + c.lane + ")"
      : LANEMAP.scope === "warpgroup" ? "T" + c.thread + " (warp " + Math.floor(c.thread / 32) +
      ", lane " + c.lane + ")" : "T" + c.thread;
    let source = "source: " + LANEMAP.sources[c.source];
    if (LANEMAP.evidence)
      source += "; hardware: " + LANEMAP.evidence.verdict + " on the " + LANEMAP.evidence.run;
    else source += "; no recorded hardware run covers this variant";
    const lines = [(state.pinned && !state.hover ? "pinned  " : "") + p.operand + " row " + c.row + " col " +
                   c.col + (c.colLast !== c.col ? ".." + c.colLast : "") + "   " + c.label,
                   c.tip, source, who + " holds " + holds(c.thread)];
    details.textContent = lines.join("\n");
  }

  function legend() {
    const el = document.getElementById("legend");
    const table = LANEMAP.palettes[state.palette][state.colorBy];
    const used = new Set();
    const d = current();
    d.panels.forEach(function (p, pi) {
      for (let i = 0; i < p.count; ++i) {
        const c = cell([pi, i]);
        if (!state.lanes || state.lanes.has(c.thread)) used.add(colorKey(c));
      }
    });
    let keys = Array.from(used).sort(function (a, b) { return a - b; });
    // Colour by thread: one entry per warp, its lane 0's shade (the SVG's legend).
    if (state.colorBy === "thread")
      keys = Array.from(new Set(keys.map(function (k) { return k - k % 32; })));
    const title = state.colorBy === "lane" ? (LANEMAP.scope === "tmem"
      ? "colour = TMEM lane % 32: the lane of the warp that reaches it"
      : CTA ? "colour = lane (thread % 32); label T<CTA thread>:<operand><value>: thread = 32 \u00d7 warp + lane"
      : LANEMAP.scope === "warpgroup"
      ? "colour = lane (thread % 32); label T<thread>: thread = 32 \u00d7 warp + lane"
      : "colour = lane (%laneid); label T<lane>:<operand><element index>")
      : state.colorBy === "register" ? "colour = fragment register (metadata: the e register)"
      : state.colorBy === "warp" ? "colour = warp (thread / 32)"
      : state.colorBy === "warpgroup" ? "colour = warpgroup (thread / 128)"
      : state.colorBy === "thread" ? "colour = thread: hue = lane (thread % 32), shade = warp % 4 (lane 0 of " +
        "each warp shown)"
      : "colour = groupID (lane >> 2): lanes 4g .. 4g+3";
    const escape = function (t) { return t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); };
    let html = '<span class="title">' + escape(title) + "</span>";
    for (const k of keys) {
      const run = function (name, size, at) {
        return name + " " + at + " (T" + size * at + "\u2013" + (size * at + size - 1) + ")";
      };
      const text = state.colorBy === "lane" ? "lane " + k : state.colorBy === "register" ? "reg " + k
        : state.colorBy === "warp" ? run("warp", 32, k) : state.colorBy === "warpgroup" ? run("warpgroup", 128, k)
        : state.colorBy === "thread" ? run("warp", 32, k / 32)
        : "group " + k + " (lanes " + 4 * k + "\u2013" + (4 * k + 3) + ")";
      html += '<span class="entry"><i style="background:' + table[k % table.length][0] + '"></i>' + text +
              "</span>";
    }
    if (state.lanes) html += '<span class="entry"><i style="background:' + DIM_FILL +
                             '"></i>outside the lane filter</span>';
    el.innerHTML = html;
  }

  // Hit test: the panel's grid arithmetic, then the few owners of that position; then the metadata fields.
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
  function eventRef(ev) {
    const r = sizer.getBoundingClientRect();
    return refAt((ev.clientX - r.left) / state.zoom, (ev.clientY - r.top) / state.zoom);
  }
  function same(a, b) { return a === b || (a && b && a[0] === b[0] && a[1] === b[1]); }

  // Deep links: #A:3,11 (operand, row, column), #C/D:0,5, #metadata:8,12; ";selector=1" picks a selector.
  function linkOf(ref) {
    const c = cell(ref);
    let s = c.operand + ":" + c.row + "," + c.col;
    if (current().selector !== null && diagrams.length > 1) s += ";selector=" + current().selector;
    return s;
  }
  function findCell(operand, row, col) {
    const want = operand.toLowerCase();
    const d = current();
    for (let pi = 0; pi < d.panels.length; ++pi) {
      const p = d.panels[pi];
      const name = p.operand.toLowerCase();
      const fits = name === want || (name === "c/d" && (want === "c" || want === "d")) ||
                   (name === "metadata" && want === "e");
      if (!fits) continue;
      for (const i of p.grid.get(row * p.cols + col) || []) return [pi, i];
    }
    return null;
  }
  function followHash() {
    const m = /^#([A-Za-z/]+):(\d+),(\d+)(?:;selector=(\d+))?$/.exec(decodeURIComponent(location.hash));
    if (!m) return false;
    if (m[4] !== undefined) {
      const k = diagrams.findIndex(function (d) { return d.selector === Number(m[4]); });
      if (k >= 0 && k !== state.diagram) {
        state.diagram = k;
        const sel = document.getElementById("selector");
        if (sel) sel.value = m[4];
        drawBase();
      }
    }
    const ref = findCell(m[1], Number(m[2]), Number(m[3]));
    if (!ref) {
      state.pinned = null;
      overlay();
      details.textContent = "The link names " + m[1] + " row " + m[2] + " col " + m[3] +
        ", which this instruction does not have.";
      return false;
    }
    state.pinned = ref;
    state.hover = null;
    overlay();
    scrollTo(cell(ref));
    return true;
  }
  // Scrolls the picture so that cell c is in the middle of the box.
  function scrollTo(c) {
    box.scrollLeft = Math.max(0, (c.x + c.w / 2) * state.zoom - box.clientWidth / 2);
    box.scrollTop = Math.max(0, (c.y + c.h / 2) * state.zoom - box.clientHeight / 2);
    sync();
  }
  function pin(ref) {
    state.pinned = ref;
    const url = location.pathname + location.search + (ref ? "#" + linkOf(ref) : "");
    history.replaceState(null, "", url);
    overlay();
  }

  // "0-3,13" -> Set; throws with a message naming the bad part.
  function parseLanes(text) {
    const set = new Set();
    for (const part of text.split(",")) {
      const p = part.trim();
      if (!p) continue;
      const m = /^(\d+)(?:-(\d+))?$/.exec(p);
      if (!m) throw new Error("'" + p + "' is not a lane or a range like 0-3");
      const lo = Number(m[1]), hi = m[2] === undefined ? lo : Number(m[2]);
      if (hi < lo || hi >= LANEMAP.threads)
        throw new Error("'" + p + "': " + (CTA ? "the CTA's threads" : "lanes") + " are 0.." +
                        (LANEMAP.threads - 1));
      for (let t = lo; t <= hi; ++t) set.add(t);
    }
    return set.size ? set : null;
  }

  sizer.addEventListener("mousemove", function (ev) {
    const ref = eventRef(ev);
    if (!same(ref, state.hover)) {
      state.hover = ref;
      overlay();
    }
  });
  sizer.addEventListener("mouseleave", function () {
    state.hover = null;
    overlay();
  });
  sizer.addEventListener("click", function (ev) {
    const ref = eventRef(ev);
    pin(ref && !same(ref, state.pinned) ? ref : null);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") pin(null);
  });
  unpin.addEventListener("click", function () { pin(null); });
  document.getElementById("colorBy").addEventListener("change", function (ev) {
    state.colorBy = ev.target.value;
    drawBase();
  });
  // Zoom: the picture scaled (a 128x256 tile's is tens of thousands of units wide); "fit" fits its width to
  // the box. The point in the middle of the box stays there.
  const zoom = document.getElementById("zoom");
  function setZoom(value) {
    const d = current();
    const z = value === "fit" ? Math.min(1, box.clientWidth / d.width) : Number(value);
    const cx = (box.scrollLeft + box.clientWidth / 2) / state.zoom;
    const cy = (box.scrollTop + box.clientHeight / 2) / state.zoom;
    state.zoom = z > 0 ? z : 1;
    sizer.style.width = d.width * state.zoom + "px";
    sizer.style.height = d.height * state.zoom + "px";
    box.scrollLeft = Math.max(0, cx * state.zoom - box.clientWidth / 2);
    box.scrollTop = Math.max(0, cy * state.zoom - box.clientHeight / 2);
    document.body.dataset.zoom = String(state.zoom);
    sync();
  }
  zoom.addEventListener("change", function (ev) { setZoom(ev.target.value); });
  document.getElementById("palette").addEventListener("change", function (ev) {
    state.palette = ev.target.value;
    drawBase();
  });
  document.getElementById("lanes").addEventListener("input", function (ev) {
    const err = document.getElementById("lanesError");
    try {
      state.lanes = parseLanes(ev.target.value);
      err.textContent = "";
    } catch (e) {
      err.textContent = e.message;
      return;
    }
    drawBase();
  });
  const selector = document.getElementById("selector");
  if (selector)
    selector.addEventListener("change", function (ev) {
      const k = diagrams.findIndex(function (d) { return String(d.selector) === ev.target.value; });
      // The pinned position stays pinned under the new selector when it exists there.
      const was = state.pinned ? cell(state.pinned) : null;
      state.diagram = Math.max(0, k);
      state.hover = null;
      state.pinned = was ? findCell(was.operand, was.row, was.col) : null;
      drawBase();
      if (state.pinned) pin(state.pinned);
    });
  window.addEventListener("hashchange", followHash);
  let pending = false;
  function later() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () {
      pending = false;
      sync();
    });
  }
  box.addEventListener("scroll", later);
  window.addEventListener("resize", later);

  // For scripted checks (tests/site): where a cell is on screen, after scrolling it into view.
  window.lanemapPage = {
    state: state,
    clientPoint: function (operand, row, col) {
      const ref = findCell(operand, row, col);
      if (!ref) return null;
      const c = cell(ref);
      scrollTo(c);
      // Below the sticky toolbar and details, so a pointer event there reaches the canvas.
      const covered = document.getElementById("details").getBoundingClientRect().bottom - window.scrollY;
      window.scrollTo(0, box.getBoundingClientRect().top + window.scrollY - covered - 8);
      const r = sizer.getBoundingClientRect();
      return { x: r.left + (c.x + c.w / 2) * state.zoom, y: r.top + (c.y + c.h / 2) * state.zoom };
    },
  };

  drawBase();
  if (zoom.value !== "1") setZoom(zoom.value);
  followHash();
  // Load to interactive, for the record (tests/site prints it; docs/site.md has the budget).
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "1";
})();
