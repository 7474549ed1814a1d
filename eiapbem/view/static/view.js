// eiapbem view: the page's core. Every figure on the page comes from the view's documents (the CLI's --json
// forms, client/documents.py) and every order goes to the client's operations; nothing is computed here.
"use strict";

const EV = {
  docs: {},            // the documents of the month shown: status, map, orders...
  geometry: null,      // where the map draws each place (present/svgmap.py geometry)
  version: "",         // the game's version on disk (api/changes)
  months: [],          // the monthly saves kept
  month: null,         // the month shown, or null for the game in play
  tab: "status",
  prefs: {},
  hooks: { refreshed: [] },
};

// ---------------------------------------------------------------- the 4.1.2 preferences (kept in this browser)

EV.PREFS = [
  ["possible_moves", "Show Possible Moves", "highlight where a selected corps or fleet can go, with the cost", true],
  ["political_shading", "Political Shading", "colour every area by the power that holds it", true],
  ["scroll_delay", "Map Scroll Delay", "how slowly the arrow keys move the map (1 fast ... 9 slow, 10 off)", 3],
  ["see_ai_moves", "See AI Moves", "mark where the computer's corps and fleets moved this month", true],
  ["always_ranges", "Always Show Ranges", "show where a unit could go in every phase, not only its movement phase", false],
];

EV.loadPrefs = function () {
  let stored = {};
  try { stored = JSON.parse(localStorage.getItem("eiapbem-view-prefs") || "{}"); } catch (e) { stored = {}; }
  for (const [key, , , dflt] of EV.PREFS) EV.prefs[key] = key in stored ? stored[key] : dflt;
};
EV.savePrefs = function () {
  try { localStorage.setItem("eiapbem-view-prefs", JSON.stringify(EV.prefs)); } catch (e) { /* private mode */ }
};

// ---------------------------------------------------------------- small helpers (text only: no markup from data)

EV.el = function (tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "on") { for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn); continue; }
    if (k === "text") { e.textContent = v; continue; }
    e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid instanceof Node ? kid : String(kid));
  return e;
};
EV.sv = function (tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
EV.clear = function (node) { while (node.firstChild) node.removeChild(node.firstChild); return node; };

EV.say = function (lines, isError, hint) {
  const box = document.getElementById("message");
  const text = (Array.isArray(lines) ? lines : [lines]).filter(Boolean);
  if (!text.length) { box.textContent = ""; box.hidden = true; document.body.classList.remove("with-message"); return; }
  box.textContent = text.map((t) => (isError ? "eiapbem: error: " + t : t)).join("\n")
    + (hint ? "\neiapbem: hint: " + hint : "");
  box.className = isError ? "error" : "";
  box.hidden = false;
  document.body.classList.add("with-message");
};

// ---------------------------------------------------------------- talking to the view

class Refused extends Error {
  constructor(body) { super(body.error); this.hint = body.hint; }
}

EV.get = async function (name, params) {
  const q = new URLSearchParams(params || {});
  if (EV.month && name !== "months" && name !== "geometry") q.set("month", EV.month);
  const r = await fetch("api/" + name + (q.toString() ? "?" + q : ""), { cache: "no-store" });
  const body = await r.json();
  if (!r.ok) throw new Refused(body);
  return body;
};

EV.post = async function (op, body) {
  const r = await fetch("api/do/" + op, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
  const out = await r.json();
  if (!r.ok) throw new Refused(out);
  return out;
};

// An operation the page asks for: its answer's lines shown, or its refusal (the CLI's sentence).
EV.run = async function (op, body) {
  if (EV.month) { EV.say("this is a month of the history, shown as it was: go back to now to play", true); return null; }
  try {
    const out = await EV.post(op, body);
    if (out.version) EV.version = out.version;  // this change is reloaded here: the wait need not
    const lines = [...(out.events || [])];
    if (out.next) lines.push("next: " + out.next);
    else if (out.to_do && out.to_do.length) lines.push("still to do: " + out.to_do[0]);
    EV.acted = true;  // the forms are drawn afresh: what was typed was taken (panels.js orders)
    await EV.refresh();  // the answer is shown with the state it made, never beside the one before it
    EV.say(lines, false);
    return out;
  } catch (err) {
    EV.say(err.message, true, err.hint);
    return null;
  }
};

// ---------------------------------------------------------------- loading what the page shows

EV.refresh = async function () {
  try {
    const [status, map, orders, months] = await Promise.all([
      EV.get("status"), EV.get("map"), EV.get("orders"), EV.get("months")]);
    EV.docs = { status, map, orders };
    EV.months = months.months;
    EV.showTop();
    for (const fn of EV.hooks.refreshed) fn();
  } catch (err) {
    EV.say(err.message, true, err.hint);
  }
};

EV.showTop = function () {
  const st = EV.docs.status;
  document.getElementById("title").textContent = `${st.game} — ${st.power}`;
  document.getElementById("when").textContent = st.date_name;
  document.getElementById("turn").textContent = st.over ? "the game is over"
    : `${st.phase} phase, ${st.simultaneous ? "every power at once" : "turn of " + st.turn_of}`;
  const slider = document.getElementById("history");
  slider.max = String(EV.months.length);
  slider.value = String(EV.month ? EV.months.indexOf(EV.month) : EV.months.length);
  document.getElementById("history-label").textContent = EV.month ? "start of " + EV.month : "now";
  const live = document.getElementById("live");
  live.textContent = EV.month ? "history (read only)" : "live";
  live.classList.toggle("past", Boolean(EV.month));
  document.title = `eiapbem ${st.game} ${st.power} — ${st.date_name}`;
};

// The page reloads by itself whenever the game changes on disk (a file loaded or written, here or elsewhere).
EV.watch = async function () {
  for (;;) {
    try {
      const r = await fetch("api/changes?after=" + encodeURIComponent(EV.version), { cache: "no-store" });
      if (!r.ok) { await new Promise((ok) => setTimeout(ok, 3000)); continue; }
      const { version } = await r.json();
      if (version !== EV.version) {
        const first = EV.version === "";
        EV.version = version;
        if (!first) await EV.refresh();
      }
    } catch (err) {
      await new Promise((ok) => setTimeout(ok, 3000));  // the view ended or restarts: try again later
    }
  }
};

EV.showTab = function (name) {
  EV.tab = name;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("on", p.id === "panel-" + name);
  if (EV.panels && EV.panels[name]) EV.panels[name]();
};

EV.start = async function () {
  EV.loadPrefs();
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => EV.showTab(b.dataset.tab));
  document.getElementById("load-btn").addEventListener("click", () => EV.run("load", {}));
  document.getElementById("history").addEventListener("input", (ev) => {
    const i = Number(ev.target.value);
    EV.month = i >= EV.months.length ? null : EV.months[i];
    EV.refresh();
  });
  EV.geometry = await EV.get("geometry");
  await EV.map.init();
  await EV.refresh();
  EV.map.fit();
  EV.watch();
  document.body.dataset.ready = "1";
};

window.addEventListener("DOMContentLoaded", () => EV.start());
