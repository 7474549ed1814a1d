// eiapbem view: the map. present/svgmap.py draws the picture; this file draws the counters over it (one per stack),
// keeps them apart where many share a region, shows an area's info box (show area --json), and highlights where a
// selected corps or fleet can go (show reach --json), turning clicks on the highlighted places into a move.
"use strict";

EV.map = (function () {
  const view = { k: 1, tx: 0, ty: 0 };
  let svg, world, counterLayer, cells = {};
  let selected = null;           // {unit, kind, reach}
  let pickField = null;          // a form field waiting for a place or unit clicked on the map
  let stacks = [];               // the counters drawn
  let layoutTimer = null;
  let lines = null;              // the leader lines of the counters drawn away from their place

  // ------------------------------------------------------------ the picture, pan and zoom

  async function init() {
    svg = document.getElementById("map");
    world = document.getElementById("world");
    counterLayer = document.getElementById("counters");
    const text = await (await fetch("map.svg", { cache: "no-store" })).text();
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const base = document.getElementById("base");
    for (const node of Array.from(doc.documentElement.childNodes)) {
      if (node.nodeType === 1 && node.getAttribute("id") === "legend") continue;
      base.appendChild(document.importNode(node, true));
    }
    for (const p of base.querySelectorAll("path[data-area]")) {
      const id = p.getAttribute("data-area");
      cells[id] = p;
      p.addEventListener("mouseenter", (ev) => hover("area", id, ev));
      p.addEventListener("mouseleave", () => unhover(id));
      p.addEventListener("click", (ev) => placeClicked(id, ev));
    }
    const seaLayer = EV.sv("g", { id: "sea-targets" });
    for (const [id, s] of Object.entries(EV.geometry.seas)) {
      const c = EV.sv("circle", { cx: s.x, cy: s.y, r: 20, class: "sea-target", "data-sea": id });
      c.addEventListener("mouseenter", (ev) => hover("sea", id, ev));
      c.addEventListener("mouseleave", () => unhover(null));
      c.addEventListener("click", (ev) => placeClicked(id, ev));
      seaLayer.appendChild(c);
    }
    base.appendChild(seaLayer);
    panAndZoom();
    EV.hooks.refreshed.push(draw);
  }

  function apply() {
    world.setAttribute("transform", `translate(${view.tx},${view.ty}) scale(${view.k})`);
    counterLayer.setAttribute("transform", `translate(${view.tx},${view.ty})`);
  }

  function zoomAt(factor, cx, cy) {
    const k = Math.min(12, Math.max(0.4, view.k * factor));
    view.tx = cx - (cx - view.tx) * (k / view.k);
    view.ty = cy - (cy - view.ty) * (k / view.k);
    view.k = k;
    apply();
    clearTimeout(layoutTimer);
    layoutTimer = setTimeout(layout, 60);
  }

  function fit() {
    const box = svg.getBoundingClientRect();
    const g = EV.geometry;
    view.k = Math.min(box.width / g.width, box.height / g.height);
    view.tx = (box.width - g.width * view.k) / 2;
    view.ty = (box.height - g.height * view.k) / 2;
    apply();
    layout();
  }

  // Show a region (map coordinates) at zoom k: used by the page's own links and by screenshots.
  function focus(x, y, k) {
    const box = svg.getBoundingClientRect();
    view.k = k;
    view.tx = box.width / 2 - x * k;
    view.ty = box.height / 2 - y * k;
    apply();
    layout();
  }

  function panAndZoom() {
    let drag = null;
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const r = svg.getBoundingClientRect();
      zoomAt(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX - r.left, ev.clientY - r.top);
    }, { passive: false });
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, tx: view.tx, ty: view.ty, moved: false };
    });
    window.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      drag.moved = true;
      svg.classList.add("dragging");
      view.tx = drag.tx + dx; view.ty = drag.ty + dy;
      apply();
    });
    window.addEventListener("pointerup", () => {
      if (drag && drag.moved) { svg.dataset.dragged = "1"; setTimeout(() => delete svg.dataset.dragged, 0); }
      drag = null; svg.classList.remove("dragging");
    });
    document.getElementById("zoom-in").addEventListener("click", () => {
      const r = svg.getBoundingClientRect(); zoomAt(1.4, r.width / 2, r.height / 2);
    });
    document.getElementById("zoom-out").addEventListener("click", () => {
      const r = svg.getBoundingClientRect(); zoomAt(1 / 1.4, r.width / 2, r.height / 2);
    });
    document.getElementById("zoom-fit").addEventListener("click", fit);
    // 4.1.2 Map Scroll Delay: the arrow keys move the map, slower for a higher setting; 10 is off.
    window.addEventListener("keydown", (ev) => {
      const delay = Number(EV.prefs.scroll_delay);
      const moves = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      if (!(ev.key in moves) || delay >= 10 || ev.target.closest("input, select, textarea")) return;
      const step = 160 / delay;
      view.tx += moves[ev.key][0] * step; view.ty += moves[ev.key][1] * step;
      apply();
      ev.preventDefault();
    });
    window.addEventListener("resize", () => layout());
  }

  // ------------------------------------------------------------ where things are

  function placeXY(key) {
    const g = EV.geometry;
    if (key.startsWith("box:")) { const b = g.boxes[key.slice(4)]; return b ? [b.x, b.y] : null; }
    if (g.areas[key]) return [g.areas[key].x, g.areas[key].y];
    if (g.seas[key]) return [g.seas[key].x, g.seas[key].y + 8];
    return null;
  }

  // The place a unit is drawn at: its area (its city included), its sea, its port's blockade box, or its carrier's.
  function placeOf(u, byId) {
    if (u.where === "aboard") { const f = byId[u.site]; return f ? placeOf(f, byId) : null; }
    if (u.where === "blockade") return "box:" + u.site;
    return u.site;
  }

  function colours(nation) {
    const map = EV.docs.map, g = EV.geometry;
    const power = g.colours[nation] ? nation : (map.nations || {})[nation];
    const pair = power && g.colours[power] ? g.colours[power] : g.neutral;
    const minor = !g.colours[nation];
    return { fill: minor ? mix(pair[0], "#ffffff", 0.45) : pair[0], ink: pair[1], minor, power };
  }

  function mix(a, b, t) {
    const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
    const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
    return "#" + pa.map((x, i) => Math.round(x + (pb[i] - x) * t).toString(16).padStart(2, "0")).join("");
  }

  function shortName(nation) {
    if (nation.length === 2 && nation === nation.toUpperCase()) return nation;
    return nation.replace(/-/g, " ").split(" ").map((w) => w[0].toUpperCase() + w.slice(1, 3)).join("").slice(0, 4);
  }

  // ------------------------------------------------------------ drawing a month

  function draw() {
    shade();
    marks();
    buildStacks();
    layout();
    if (selected) showReach();
  }

  // 4.1.2 Political Shading: each area in the colour of the power acting for its holder (rules/control.py).
  function shade() {
    const areas = EV.docs.map.areas, g = EV.geometry;
    for (const [id, cell] of Object.entries(cells)) {
      if (!EV.prefs.political_shading) { cell.setAttribute("fill", "#efe9d6"); continue; }
      const row = areas[id];
      const pair = row && row.power && g.colours[row.power] ? g.colours[row.power] : g.neutral;
      cell.setAttribute("fill", g.areas[id].minor && row && row.power ? mix(pair[0], "#ffffff", 0.45) : pair[0]);
    }
  }

  // Sieges (10.4.3), blockades (8.8), the phase's battles, depots, and the computer's moves (4.1.2 See AI Moves).
  function marks() {
    const layer = EV.clear(document.getElementById("marks"));
    const map = EV.docs.map;
    for (const [id, row] of Object.entries(map.areas)) {
      const xy = placeXY(id);
      if (!xy) continue;
      if (row.besieged) layer.appendChild(EV.sv("circle", { cx: xy[0], cy: xy[1], r: 9, class: "mark-siege", "data-mark": "siege:" + id }));
      if (row.blockaded) layer.appendChild(EV.sv("circle", { cx: xy[0], cy: xy[1], r: 12, class: "mark-blockade", "data-mark": "blockade:" + id }));
    }
    for (const b of map.battles) {
      const xy = placeXY(b.place);
      if (!xy) continue;
      const g = EV.sv("g", { "data-mark": "battle:" + b.id });
      g.appendChild(EV.sv("path", { d: `M${xy[0] - 6},${xy[1] - 6} L${xy[0] + 6},${xy[1] + 6} M${xy[0] + 6},${xy[1] - 6} L${xy[0] - 6},${xy[1] + 6}`,
        stroke: b.finished ? "#555" : "#c8102e", "stroke-width": 3 }));
      g.appendChild(EV.sv("title", {}, `${b.what} battle ${b.id} (${b.finished ? "finished" : "in progress"})`));
      layer.appendChild(g);
    }
    if (EV.prefs.see_ai_moves && EV.docs.aiMoves) {
      for (const place of EV.docs.aiMoves) {
        const xy = placeXY(place);
        if (xy) layer.appendChild(EV.sv("circle", { cx: xy[0], cy: xy[1], r: 15, class: "mark-ai", "data-mark": "ai:" + place }));
      }
    }
  }

  // One counter per stack: the units of one nation in one place, land and naval apart; depots as small markers.
  function buildStacks() {
    const map = EV.docs.map;
    const byId = Object.fromEntries(map.units.map((u) => [u.id, u]));
    const leaders = {};
    for (const l of map.leaders) (leaders[l.with] = leaders[l.with] || []).push(l);
    const groups = new Map();
    for (const u of map.units) {
      const place = placeOf(u, byId);
      if (!place || !placeXY(place)) continue;
      const cat = u.kind === "depot" ? "depot" : (u.kind === "fleet" ? "naval" : "land");
      const key = `${place}|${u.nation}|${cat}`;
      if (!groups.has(key)) groups.set(key, { key, place, nation: u.nation, cat, units: [], leaders: [] });
      const s = groups.get(key);
      s.units.push(u);
      s.leaders.push(...(leaders[u.id] || []));
    }
    stacks = Array.from(groups.values()).sort((a, b) => (a.key < b.key ? -1 : 1));
    for (const s of stacks) {
      const hidden = s.units.some((u) => u.hidden);
      s.strength = hidden ? null : s.units.reduce((n, u) => n + (u.strength || 0), 0);
      s.mine = s.units.some((u) => mine(u));
    }
  }

  function mine(u) {
    const st = EV.docs.status;
    const c = colours(u.nation);
    return u.nation === st.power || c.power === st.power;
  }

  // The counters at the zoom shown: a compact grid under each place, then pushed apart until none overlaps
  // another (a leader line back to the place when one had to move far).
  function layout() {
    if (!EV.docs.map) return;
    EV.clear(counterLayer);
    const k = view.k;
    const big = k >= 1.4;
    const grow = Math.min(1.35, Math.max(1, k / 2.4));  // counters grow a little with the zoom, as the names do
    const W = (big ? 34 : 24) * grow, H = (big ? 24 : 16) * grow;
    const byPlace = new Map();
    for (const s of stacks) {
      if (!byPlace.has(s.place)) byPlace.set(s.place, []);
      byPlace.get(s.place).push(s);
    }
    const items = [];
    for (const [place, list] of byPlace) {
      const [x, y] = placeXY(place);
      const ax = x * k, ay = y * k + (place in EV.geometry.areas ? 7 * Math.min(k, 2) + 4 : 4);
      const cols = Math.ceil(Math.sqrt(list.length));
      const rows = Math.ceil(list.length / cols);
      list.forEach((s, i) => {
        const c = i % cols, r = Math.floor(i / cols);
        const px = ax + (c - (cols - 1) / 2) * (W + 3), py = ay + H / 2 + (r - (rows - 1) / 2) * (H + 3) + (rows - 1) * (H + 3) / 2;
        items.push({ s, ax: x * k, ay: y * k, tx: px, ty: py, x: px, y: py });
      });
    }
    // Each counter at the free spot nearest its wanted one (a spiral of steps around it), the most crowded places
    // first: no counter ever covers another; one that had to move keeps a leader line to its place.
    const gap = 2, cw = W + gap, ch = H + gap;
    const grid = new Map();
    const key = (gx, gy) => gx + "," + gy;
    const free = (x, y) => {
      const gx = Math.floor(x / cw), gy = Math.floor(y / ch);
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
        for (const o of grid.get(key(gx + dx, gy + dy)) || []) {
          if (Math.abs(o.x - x) < cw && Math.abs(o.y - y) < ch) return false;
        }
      }
      return true;
    };
    const crowd = new Map();
    for (const it of items) crowd.set(it.s.place, (crowd.get(it.s.place) || 0) + 1);
    const order = items.slice().sort((p, q) => (crowd.get(q.s.place) - crowd.get(p.s.place)) || (p.s.key < q.s.key ? -1 : 1));
    for (const it of order) {
      let done = false;
      for (let ring = 0; ring < 60 && !done; ring++) {
        const steps = ring === 0 ? [[0, 0]] : [];
        for (let i = -ring; i <= ring; i++) {
          steps.push([i, -ring], [i, ring]);
          if (Math.abs(i) !== ring) steps.push([-ring, i], [ring, i]);
        }
        steps.sort((p, q) => Math.hypot(p[0] * cw, p[1] * ch) - Math.hypot(q[0] * cw, q[1] * ch));
        for (const [dx, dy] of steps) {
          const x = it.tx + dx * cw / 2, y = it.ty + dy * ch / 2;
          if (free(x, y)) { it.x = x; it.y = y; done = true; break; }
        }
      }
      const gk = key(Math.floor(it.x / cw), Math.floor(it.y / ch));
      if (!grid.has(gk)) grid.set(gk, []);
      grid.get(gk).push(it);
    }
    lines = EV.sv("g", { class: "leader-lines" });
    counterLayer.appendChild(lines);
    for (const it of items) drawCounter(it, W, H, big, grow);
  }

  function drawCounter(it, W0, H0, big, grow) {
    const s = it.s;
    const c = colours(s.nation);
    const g = EV.sv("g", { class: "counter" + (selected && s.units.some((u) => u.id === selected.unit) ? " selected" : ""),
      "data-stack": s.key, "data-place": s.place, "data-nation": s.nation, transform: `translate(${it.x},${it.y}) scale(${grow})`,
      "data-strength": s.strength === null ? "?" : String(s.strength), "data-units": s.units.map((u) => u.id).join(" ") });
    const far = Math.hypot(it.x - it.ax, it.y - it.ay) > H0 * 1.3;
    if (far) {
      lines.appendChild(EV.sv("line", { x1: it.ax, y1: it.ay, x2: it.x, y2: it.y, class: "leader-line" }));
      lines.appendChild(EV.sv("circle", { cx: it.ax, cy: it.ay, r: 2.2, class: "leader-dot" }));
    }
    const W = W0 / grow, H = H0 / grow, x0 = -W / 2, y0 = -H / 2;
    if (s.cat === "depot") {
      g.appendChild(EV.sv("rect", { x: x0 + W / 4, y: y0 + H / 4, width: W / 2, height: H / 2, class: "body", fill: c.fill, stroke: c.ink, rx: 1 }));
      g.appendChild(EV.sv("text", { x: 0, y: 3.5, "text-anchor": "middle", "font-size": big ? 10 : 8, fill: c.ink, "font-weight": "bold" }, "D"));
    } else {
      g.appendChild(EV.sv("rect", { x: x0, y: y0, width: W, height: H, rx: s.cat === "naval" ? 7 : 2, class: "body",
        fill: c.fill, stroke: c.ink }));
      if (s.cat === "naval") g.appendChild(EV.sv("rect", { x: x0 + 2, y: y0 + H - 4, width: W - 4, height: 2, fill: "#1d3557" }));
      const label = shortName(s.nation), strength = s.strength === null ? "?" : String(s.strength);
      if (big) {
        g.appendChild(EV.sv("text", { x: 0, y: y0 + 10, "text-anchor": "middle", "font-size": 9, fill: c.ink, "font-weight": "bold" }, label));
        g.appendChild(EV.sv("text", { x: 0, y: y0 + 20.5, "text-anchor": "middle", "font-size": 11, fill: "#111", "font-weight": "bold" }, strength));
      } else {
        g.appendChild(EV.sv("text", { x: 0, y: 4, "text-anchor": "middle", "font-size": 10, fill: "#111", "font-weight": "bold" }, strength));
      }
      if (s.leaders.length) g.appendChild(EV.sv("circle", { cx: x0 + W - 3, cy: y0 + 3, r: big ? 3.2 : 2.4, fill: "#ffd700", stroke: "#5a4500", "stroke-width": 0.8 }));
      if (s.units.some((u) => u.kind === "garrison")) g.appendChild(EV.sv("rect", { x: x0 + 1.5, y: y0 + 1.5, width: 4, height: 4, fill: c.ink }));
    }
    g.appendChild(EV.sv("title", {}, stackTitle(s)));
    g.addEventListener("click", (ev) => { ev.stopPropagation(); stackClicked(s, ev); });
    g.addEventListener("mouseenter", () => { if (cells[s.place]) cells[s.place].classList.add("hover"); });
    g.addEventListener("mouseleave", () => { if (cells[s.place]) cells[s.place].classList.remove("hover"); });
    counterLayer.appendChild(g);
  }

  function stackTitle(s) {
    return `${s.nation} in ${s.place}: ` + s.units.map((u) => `${u.id} ${u.hidden ? "(strength hidden)" : u.strength}`).join(", ")
      + (s.leaders.length ? "; leaders " + s.leaders.map((l) => l.id).join(", ") : "");
  }

  // ------------------------------------------------------------ info boxes (show area --json) and stacks

  let hoverSeq = 0;
  async function hover(kind, id, ev) {
    if (cells[id]) cells[id].classList.add("hover");
    const seq = ++hoverSeq;
    await new Promise((ok) => setTimeout(ok, 180));
    if (seq !== hoverSeq) return;
    try {
      const rec = await EV.get("area", { id });
      if (seq !== hoverSeq) return;
      showInfo(rec, ev);
    } catch (err) { /* an area the rules do not know: no box */ }
  }

  function unhover(id) {
    hoverSeq++;
    if (id && cells[id]) cells[id].classList.remove("hover");
    document.getElementById("infobox").hidden = true;
  }

  function unitLine(u) {
    const what = u.hidden ? "strength hidden (fog of war)"
      : u.kind === "leader" ? u.status
      : `${u.strength}` + (u.factors || u.ships ? " (" + Object.entries(u.factors || u.ships).map(([k, v]) => `${v} ${k.replace(/_/g, " ")}`).join(", ") + ")" : "");
    const inside = u.where === "city" ? " inside the city" : u.where === "aboard" ? " aboard " + u.site : u.where === "blockade" ? " blockading" : "";
    return `${u.id}: ${what}${inside}` + (u.leaders && u.leaders.length ? `; with ${u.leaders.join(", ")}` : "");
  }

  function showInfo(rec, ev) {
    const box = EV.clear(document.getElementById("infobox"));
    box.appendChild(EV.el("h4", { text: `${rec.name} (${rec.id})` }));
    const lines = [];
    if (rec.kind === "sea" || rec.kind === "blockade-box") {
      if (rec.ports && rec.ports.length) lines.push("ports: " + rec.ports.join(", "));
      if (rec.ice) lines.push("north of the ice line (closed in winter, 8.4.1)");
    } else {
      lines.push(`nation ${rec.nation}, province ${rec.province}, terrain ${rec.terrain}, forage ${rec.forage}`);
      if (rec.city) lines.push(`city ${rec.city.name}: supply ${rec.city.supply}, siege ${rec.city.siege}, garrison room ${rec.city.garrison_room}`
        + (rec.city.capital ? `, ${rec.city.capital} capital` : "") + (rec.city.held_by !== rec.controlled_by ? `; held by ${rec.city.held_by}` : ""));
      if (rec.port) lines.push("port on " + rec.port.seas.join(", ") + (rec.port.ice ? " (ice)" : ""));
      lines.push("controlled by " + rec.controlled_by);
    }
    for (const l of lines) box.appendChild(EV.el("div", { text: l }));
    box.appendChild(EV.el("div", { text: rec.units.length ? "units:" : "units: none" }));
    if (rec.units.length) box.appendChild(EV.el("ul", {}, rec.units.map((u) => EV.el("li", { text: unitLine(u) }))));
    place(box, ev);
  }

  function place(box, ev) {
    const r = document.getElementById("mapbox").getBoundingClientRect();
    box.hidden = false;
    const x = Math.min(ev.clientX - r.left + 14, r.width - box.offsetWidth - 6);
    const y = Math.min(ev.clientY - r.top + 14, r.height - box.offsetHeight - 6);
    box.style.left = Math.max(4, x) + "px";
    box.style.top = Math.max(4, y) + "px";
  }

  function stackClicked(s, ev) {
    if (svg.dataset.dragged) return;
    const box = EV.clear(document.getElementById("stackbox"));
    box.appendChild(EV.el("button", { class: "close", type: "button", text: "×", on: { click: () => { box.hidden = true; } } }));
    box.appendChild(EV.el("h4", { text: `${s.nation} in ${s.place}` + (s.strength === null ? "" : ` — strength ${s.strength}`) }));
    const list = EV.el("ul", {});
    for (const u of s.units) {
      const own = mine(u) && (u.kind === "corps" || u.kind === "fleet");
      const li = EV.el("li", { class: "unit" + (own ? " mine" : ""), "data-unit": u.id, text: unitLine(u) });
      li.addEventListener("click", () => unitClicked(u));
      list.appendChild(li);
    }
    for (const l of s.leaders) list.appendChild(EV.el("li", { class: "unit", "data-unit": l.id, text: `${l.id}: leader with ${l.with}`,
      on: { click: () => unitClicked(l) } }));
    box.appendChild(list);
    if (s.mine) box.appendChild(EV.el("div", { class: "choice-help", text: "click one of your corps or fleets: where it can go is highlighted" }));
    place(box, ev);
    const own = s.units.filter((u) => mine(u) && (u.kind === "corps" || u.kind === "fleet"));
    if (own.length === 1 && !pickField) unitClicked(own[0]);
  }

  // ------------------------------------------------------------ Show Possible Moves (show reach --json) and moving

  async function unitClicked(u) {
    if (pickField) { pickField(u.id); pickField = null; return; }
    if (!(u.kind === "corps" || u.kind === "fleet") || !mine(u) || !EV.prefs.possible_moves || EV.month) return;
    const phase = EV.docs.status.phase;
    const group = u.kind === "fleet" ? "naval" : "land";
    if (phase !== group && !EV.prefs.always_ranges) {
      EV.say(`${u.id} moves in the ${group} phase; this is the ${phase} phase ('Always Show Ranges' in the preferences shows its range now)`);
      return;
    }
    await select(u.id, u.kind, false);
  }

  async function select(unit, kind, forced) {
    try {
      const reach = await EV.get("reach", { unit, forced_march: forced ? "1" : "0" });
      selected = { unit, kind, reach, forced, target: null };
      document.body.dataset.selected = unit;
      showReach();
      layout();
    } catch (err) {
      EV.say(err.message, true, err.hint);
    }
  }

  function clearSelection() {
    selected = null;
    delete document.body.dataset.selected;
    EV.clear(document.getElementById("reach"));
    EV.clear(document.getElementById("path"));
    document.getElementById("movebox").hidden = true;
    layout();
  }

  function showReach() {
    const layer = EV.clear(document.getElementById("reach"));
    EV.clear(document.getElementById("path"));
    if (!selected) return;
    for (const a of selected.reach.areas) {
      const xy = placeXY(a.area);
      if (cells[a.area]) {
        layer.appendChild(EV.sv("path", { d: cells[a.area].getAttribute("d"), class: "reach-area", "data-reach": a.area, "data-cost": a.cost }));
      } else if (xy) {
        layer.appendChild(EV.sv("circle", { cx: xy[0], cy: xy[1], r: a.area.startsWith("box:") ? 6 : 14, class: "reach-place",
          "data-reach": a.area, "data-cost": a.cost, on: null }));
        layer.lastChild.addEventListener("click", (ev) => placeClicked(a.area, ev));
      }
      if (xy) layer.appendChild(EV.sv("text", { x: xy[0], y: xy[1] - 3, "text-anchor": "middle", class: "reach-cost" }, String(a.cost)));
    }
    if (selected.target) drawPath(selected.target);
  }

  function drawPath(r) {
    const layer = EV.clear(document.getElementById("path"));
    const pts = [placeXY(selected.reach.at), ...r.path.map(placeXY)].filter(Boolean);
    layer.appendChild(EV.sv("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "path-line" }));
  }

  function placeClicked(id, ev) {
    if (svg.dataset.dragged) return;
    if (pickField) { pickField(id); pickField = null; return; }
    document.getElementById("stackbox").hidden = true;
    if (selected) {
      const r = selected.reach.areas.find((a) => a.area === id);
      if (r) { proposeMove(r, ev); return; }
      clearSelection();
    }
    if (EV.panels && EV.panels.placeMenu && !EV.month) EV.panels.placeMenu(id, ev);
  }

  function proposeMove(r, ev) {
    selected.target = r;
    drawPath(r);
    const box = EV.clear(document.getElementById("movebox"));
    const unit = selected.unit, fleet = selected.kind === "fleet";
    box.appendChild(EV.el("button", { class: "close", type: "button", text: "×", on: { click: clearSelection } }));
    box.appendChild(EV.el("h4", { text: `Move ${unit} to ${r.area}` }));
    box.appendChild(EV.el("div", { text: `cost ${r.cost} of ${selected.reach.allowance - selected.reach.spent} movement points left; path ${r.path.join(", ")}` }));
    if (r.halts) box.appendChild(EV.el("div", { class: "todo", text: "it must stop there: " + r.halts }));
    const opts = {};
    if (!fleet) {
      for (const [name, label] of [["forced_march", "forced march (10.4.1)"], ["city", "end inside the city (10.4.3)"]]) {
        const input = EV.el("input", { type: "checkbox", id: "move-" + name, checked: name === "forced_march" && selected.forced });
        opts[name] = input;
        box.appendChild(EV.el("label", {}, input, " " + label));
        box.appendChild(EV.el("br"));
      }
      opts.forced_march.addEventListener("change", () => select(unit, "corps", opts.forced_march.checked));
    }
    const go = EV.el("button", { class: "act", type: "button", id: "move-go", text: "Move" });
    go.addEventListener("click", async () => {
      const values = fleet ? { fleet: unit, path: r.path.join(",") }
        : { unit, path: r.path.join(","), forced_march: opts.forced_march.checked, city: opts.city.checked };
      const out = await EV.run("order", { kind: fleet ? "naval.move" : "land.move", values });
      if (out) clearSelection();
    });
    box.appendChild(go);
    box.appendChild(EV.el("button", { class: "act", type: "button", text: "Cancel", on: { click: clearSelection } }));
    place(box, ev);
  }

  // A form field that takes the next place or unit clicked on the map.
  function pick(fn) { pickField = fn; EV.say("click a place or a counter's unit on the map to fill the field"); }

  return { init, fit, focus, pick, select, clearSelection, placeXY, colours, unitLine, view, marks, stacks: () => stacks };
})();
