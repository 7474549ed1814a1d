// eiapbem view: the panels (status, orders, log, battles, economy, powers, chart, preferences) and the dialogs.
// Each panel shows one of the CLI's --json documents as it is; each button sends one of the CLI's operations.
"use strict";

EV.panels = (function () {
  const { el } = EV;
  const panel = (name) => EV.clear(document.getElementById("panel-" + name));
  const POWERS = ["AU", "FR", "GB", "PR", "RU", "SP", "TU"];

  function refused(node, err) {
    node.appendChild(el("p", { class: "todo", text: "eiapbem: error: " + err.message + (err.hint ? "\neiapbem: hint: " + err.hint : "") }));
  }

  // ------------------------------------------------------------ status (eiapbem status --json)

  function status() {
    const st = EV.docs.status, box = panel("status");
    if (EV.month) box.appendChild(el("div", { class: "readonly-note", text: `The game at the start of ${EV.month} (a monthly save): read only.` }));
    box.appendChild(el("h3", { text: `${st.date_name}: ${st.over ? "the game is over" : st.phase + " phase"}` }));
    box.appendChild(el("div", { text: st.simultaneous ? `every power gives its orders at once (${st.slot})` : `turn of ${st.turn_of} (${st.slot})` }));
    box.appendChild(el("div", { text: `state ${st.state_hash.slice(0, 16)} (equal on every player's computer when in sync)` }));
    if (st.waiting.length) box.appendChild(el("div", { text: "waiting for: " + st.waiting.map((w) => `${w.power} (${w.from})`).join(", ") }));
    if (st.computer.length) box.appendChild(el("div", { text: "played by the computer: " + st.computer.map((c) => `${c.power} (${c.level})`).join(", ") }));
    if (st.actions_taken !== null) box.appendChild(el("div", { text: `${st.power}: ${st.actions_taken} action(s) taken in this slot` + (st.reloads ? `, ${st.reloads} reload(s)` : "") }));
    if (st.orders_sent !== null) box.appendChild(el("div", { text: `${st.power}: orders sent (${st.orders_sent}); the phase resolves when every power's are in` }));
    box.appendChild(el("h3", { text: "To do before end-phase" }));
    box.appendChild(st.to_do.length ? el("ul", {}, st.to_do.map((t) => el("li", { class: "todo", text: t }))) : el("div", { text: "nothing" }));
    if (st.next) box.appendChild(el("div", { id: "next-step" }, el("strong", { text: "Next: " }), st.next));
    for (const line of [...st.battles, ...(st.forks || []), ...st.peace_terms]) box.appendChild(el("div", { text: line }));
    questions(box);
    if (!EV.month && !st.over) {
      box.appendChild(el("h3", { text: "Your slot" }));
      if (st.phase === "setup" && st.waiting.some((w) => w.here && w.power === st.power)) {
        box.appendChild(el("button", { class: "act", type: "button", id: "setup-default-btn", text: "Load the shipped setup",
          title: "place every force as the scenario's shipped setup does (eiapbem setup load default); the Orders tab places them piece by piece",
          on: { click: () => EV.run("setup", { which: "default" }) } }));
      }
      box.appendChild(el("button", { class: "act", type: "button", id: "restart-btn", text: "Restart",
        title: "take back every action of your slot (counted and shown to all, 4.2.7)", on: { click: confirmRestart } }));
      box.appendChild(el("button", { class: "act danger", type: "button", id: "end-phase-btn", text: "End phase",
        title: "end your slot and write the turn file (End Current Phase)", on: { click: confirmEnd } }));
      if (st.phase === "land" || st.phase === "economic") {
        // end-phase --seal-diplomacy: next month's diplomacy orders sealed in this file (6.0, one round next month)
        box.appendChild(el("label", { class: "choice-help", title: "orders given for next month are sealed without it" },
          el("input", { type: "checkbox", id: "seal-diplomacy" }),
          " seal next month's diplomacy orders in this file (those given for next month, or none): next month's diplomacy phase is one round for you"));
      }
    }
    if (st.standing_orders) box.appendChild(el("div", { class: "choice-help", text: "battle standing orders: " + st.standing_orders }));
    box.appendChild(el("h3", { text: "Last log lines" }));
    for (const e of st.log) box.appendChild(el("div", { class: "logline" }, el("span", { class: "slot", text: `[${e.slot}] ` }), e.text));
  }

  // A pending question for this folder: its choices as buttons, explained as 'eiapbem answer --help' does.
  function questions(box) {
    const st = EV.docs.status, chits = (EV.docs.orders || {}).chits || {};
    const mine = st.pending.filter((d) => st.plays.includes(d.power));
    for (const d of mine) {
      const q = el("div", { class: "question", "data-question": d.id });
      q.appendChild(el("strong", { text: `${d.power} to answer ${d.kind}` }));
      q.appendChild(el("div", { class: "choice-help", text: d.id }));
      const many = d.options.length > 12;
      if (many) {
        const sel = el("select", { id: "answer-" + d.id }, d.options.map((o) => el("option", { value: o, text: o })));
        q.appendChild(sel);
        q.appendChild(el("button", { class: "act", type: "button", text: "Answer", on: { click: () => answer(d, sel.value) } }));
      } else {
        for (const o of d.options) {
          q.appendChild(el("button", { type: "button", "data-choice": o, text: o, title: chits[o] || "", on: { click: () => answer(d, o) } }));
        }
      }
      const explained = d.options.filter((o) => chits[o]);
      if (explained.length) q.appendChild(el("ul", { class: "choice-help" }, explained.map((o) => el("li", { text: `${o}: ${chits[o]}` }))));
      q.appendChild(el("details", {}, el("summary", { text: "how to answer (eiapbem answer --help)" }),
        el("pre", { class: "choice-help", text: (EV.docs.orders || {}).answer_help || "" })));
      const battle = d.id.split("/")[0];
      q.appendChild(el("button", { class: "act", type: "button", text: "Battle report", on: { click: () => { EV.showTab("battles"); showBattle(battle); } } }));
      box.appendChild(q);
    }
  }

  function answer(d, choice) { return EV.run("answer", { decision: d.id, choice }); }

  function confirmDialog(title, lines, okText, onOk) {
    const dlg = document.getElementById("dialog"), body = EV.clear(document.getElementById("dialog-body"));
    body.appendChild(el("h3", { text: title }));
    for (const l of lines) body.appendChild(el("p", { text: l }));
    body.appendChild(el("button", { class: "act danger", type: "button", id: "dialog-ok", text: okText,
      on: { click: () => { dlg.hidden = true; onOk(); } } }));
    body.appendChild(el("button", { class: "act", type: "button", id: "dialog-cancel", text: "Cancel", on: { click: () => { dlg.hidden = true; } } }));
    dlg.hidden = false;
  }

  function stillToDo() {
    const st = EV.docs.status;
    const lines = st.to_do.length ? ["Still to do:", ...st.to_do.map((t) => "• " + t)] : ["Nothing is left to do in this slot."];
    if (st.next) lines.push("Next: " + st.next);
    return lines;
  }

  function confirmEnd() {
    confirmDialog("End your phase?", [...stillToDo(), "The turn file is written to commout/ to be sent to the others."], "End phase",
      () => EV.run("end-phase", { seal_diplomacy: Boolean((document.getElementById("seal-diplomacy") || {}).checked) }));
  }

  function confirmRestart() {
    const st = EV.docs.status;
    confirmDialog("Restart your slot?", [`Every action of this slot is taken back (${st.actions_taken || 0} so far).`,
      "The restart is counted and shown to every player (4.2.7).", ...stillToDo()], "Restart", () => EV.run("restart", {}));
  }

  // ------------------------------------------------------------ orders (one form per order of the phase)

  let placeFor = null;  // the place last clicked: its orders come first in the panel
  let ordersSlot = null;  // the slot the orders panel was last drawn for

  function orders() {
    // A panel drawn again because the game changed under the page (another power's file, a sync) keeps the forms
    // the player had open, and in the same slot what was typed in them: a refresh never takes a half-filled order
    // away. After the player's own order the forms are drawn afresh, as before.
    const old = document.getElementById("panel-orders"), slot = EV.docs.status && EV.docs.status.slot;
    const keep = !EV.acted;
    EV.acted = false;
    const wasOpen = new Set(!keep ? [] : Array.from(old.querySelectorAll("details.order[open]"))
      .map((d) => d.dataset.order + "|" + (d.dataset.nextMonth || "")));
    const typed = keep && slot === ordersSlot ? Array.from(old.querySelectorAll("details.order input[id], details.order select[id]"))
      .filter((i) => i.type !== "checkbox" ? i.value !== "" : i.checked).map((i) => [i.id, i.type === "checkbox" ? i.checked : i.value]) : [];
    ordersSlot = slot;
    const box = panel("orders"), doc = EV.docs.orders;
    try { fillOrders(box, doc); } finally {
      for (const d of box.querySelectorAll("details.order")) {
        if (wasOpen.has(d.dataset.order + "|" + (d.dataset.nextMonth || ""))) d.open = true;
      }
      for (const [id, v] of typed) {
        const i = document.getElementById(id);
        if (i && box.contains(i)) { if (typeof v === "boolean") i.checked = v; else i.value = v; }
      }
    }
  }

  function fillOrders(box, doc) {
    if (EV.month) { box.appendChild(el("div", { class: "readonly-note", text: "A month of the history cannot be played." })); return; }
    if (!doc.phase) { box.appendChild(el("p", { text: "the game is over" })); return; }
    const fits = placeFor ? doc.orders.filter((o) => o.fields.some((f) => f.place && f.kind !== "list" && f.name !== "path")) : [];
    if (fits.length) {
      box.appendChild(el("h3", {}, `Orders for ${placeFor} `,
        el("button", { type: "button", class: "pick", text: "clear", on: { click: () => { placeFor = null; orders(); } } })));
      const here = el("div", { id: "orders-here" });
      for (const o of fits) {
        const f = o.fields.find((x) => x.place && x.kind !== "list" && x.name !== "path");
        here.appendChild(orderForm(o, { [f.name]: placeFor }, fits.length === 1));
      }
      box.appendChild(here);
      box.appendChild(el("h3", { text: "Every order of the phase" }));
    }
    box.appendChild(el("p", { class: "choice-help", text: `The orders of the ${doc.phase} phase, as 'eiapbem --help' lists them; `
      + "a field naming a place or a unit can be filled by clicking the map." }));
    for (const o of doc.orders) box.appendChild(orderForm(o, {}));
    if (doc.next_month && doc.next_month.length) {
      // The CLI's --next-month: next month's diplomacy orders, sealed in your land file or economic orders (6.0).
      box.appendChild(el("h3", { id: "next-month", text: "Next month's diplomacy orders" }));
      box.appendChild(el("p", { class: "choice-help", text: `Given now, sealed in your land file (or your economic orders) `
        + `when you end that slot: next month's diplomacy phase is then one round for you (6.0). Orders given so far: ${doc.next_month_given}.` }));
      for (const o of doc.next_month) box.appendChild(orderForm(o, {}, false, true));
    }
  }

  function orderForm(o, preset, open, ahead) {
    const d = el("details", { class: "order", "data-order": o.kind, "data-next-month": ahead ? "1" : null, open: open || null });
    d.appendChild(el("summary", {}, o.command, " ", el("span", { class: "summary", text: o.summary })));
    if (o.button) d.appendChild(el("div", { class: "choice-help", text: "manual: " + o.button }));
    const inputs = {};
    for (const f of o.fields) {
      const wrap = el("div", { class: "field" });
      const id = `f-${ahead ? "next-" : ""}${o.kind}-${f.name}`;
      wrap.appendChild(el("label", { for: id, text: "--" + f.name.replace(/_/g, "-") + (f.required ? " (required)" : "") }));
      let input;
      if (f.kind === "flag") {
        input = el("input", { type: "checkbox", id, checked: Boolean(preset[f.name] ?? f.default) });
      } else if (f.kind === "choice") {
        input = el("select", { id }, [el("option", { value: "", text: f.required ? "— choose —" : "(none)" }),
          ...f.choices.map((c) => el("option", { value: c, text: c, selected: preset[f.name] === c || (!(f.name in preset) && f.default === c) }))]);
      } else if (f.kind === "factors" || f.kind === "ships") {
        input = el("span", { class: "parts", id });
        input.parts = {};
        for (const p of f.parts) {
          const n = el("input", { type: "number", min: "0", value: "0", "data-part": p });
          input.parts[p] = n;
          input.appendChild(el("label", {}, p.replace(/_/g, " "), n));
        }
      } else {
        input = el("input", { type: f.kind === "number" ? "number" : "text", id, value: preset[f.name] ?? (f.default ?? ""),
          placeholder: f.kind === "list" ? "several values: separate them with commas" : "" });
      }
      inputs[f.name] = { f, input };
      wrap.appendChild(input);
      if (f.kind === "text" || f.kind === "list") {
        wrap.appendChild(el("button", { type: "button", class: "pick", text: "pick on map",
          on: { click: () => EV.map.pick((v) => { input.value = f.kind === "list" && input.value ? input.value + "," + v : v; EV.say(""); }) } }));
      }
      wrap.appendChild(el("div", { class: "help", text: f.help || "" }));
      d.appendChild(wrap);
    }
    let short = null;
    if (o.purchase && !ahead) {
      // The CLI's --even-if-short: a purchase the projection cannot pay is refused unless an ally's loan will pay it.
      short = el("input", { type: "checkbox", id: `f-${o.kind}-even-if-short` });
      d.appendChild(el("div", { class: "field" }, el("label", { for: short.id, text: "--even-if-short" }), short,
        el("div", { class: "help", text: "give the order although the projection cannot pay it (an ally's loan this phase, 12.3)" })));
    }
    d.appendChild(el("button", { class: "act", type: "button", "data-submit": (ahead ? "next-month:" : "") + o.kind,
      text: o.command + (ahead ? " --next-month" : ""),
      on: { click: () => EV.run("order", ahead ? { kind: o.kind, values: formValues(inputs), next_month: true }
                                                : { kind: o.kind, values: formValues(inputs), even_if_short: Boolean(short && short.checked) }) } }));
    return d;
  }

  function formValues(inputs) {
    const out = {};
    for (const [name, { f, input }] of Object.entries(inputs)) {
      if (f.kind === "flag") out[name] = input.checked;
      else if (f.kind === "factors" || f.kind === "ships") {
        const v = {};
        for (const [p, n] of Object.entries(input.parts)) if (Number(n.value)) v[p] = Number(n.value);
        out[name] = v;
      } else if (input.value !== "") out[name] = f.kind === "number" ? Number(input.value) : input.value;
    }
    return out;
  }

  // A click on a place with no unit selected: the orders of the phase that take a place, with it filled in.
  function placeMenu(id) {
    const doc = EV.docs.orders;
    if (!doc || !doc.orders || !doc.orders.some((o) => o.fields.some((f) => f.place && f.name !== "path"))) return;
    placeFor = id;
    EV.showTab("orders");
  }

  // ------------------------------------------------------------ log (eiapbem log --json), filterable

  const logFilter = { power: "", phase: "", text: "" };
  async function log() {
    const box = panel("log");
    let lines;
    try { lines = await EV.get("log"); } catch (err) { return refused(box, err); }
    const parts = (e) => { const p = e.slot.split("/"); return { phase: p[1] || "", power: p[p.length - 1] }; };
    const phases = [...new Set(lines.map((e) => parts(e).phase).filter(Boolean))].sort();
    const f = el("div", { class: "filters" });
    const pw = el("select", { id: "log-power" }, [el("option", { value: "", text: "every power" }),
      ...POWERS.map((p) => el("option", { value: p, text: p, selected: logFilter.power === p })),
      el("option", { value: "host", text: "host", selected: logFilter.power === "host" })]);
    const ph = el("select", { id: "log-phase" }, [el("option", { value: "", text: "every phase" }),
      ...phases.map((p) => el("option", { value: p, text: p, selected: logFilter.phase === p }))]);
    const tx = el("input", { type: "text", id: "log-text", placeholder: "words", value: logFilter.text });
    const list = el("div", { id: "log-lines" });
    const show = () => {
      logFilter.power = pw.value; logFilter.phase = ph.value; logFilter.text = tx.value.toLowerCase();
      EV.clear(list);
      const shown = lines.filter((e) => (!logFilter.power || e.author === logFilter.power || parts(e).power === logFilter.power)
        && (!logFilter.phase || parts(e).phase === logFilter.phase) && (!logFilter.text || e.text.toLowerCase().includes(logFilter.text)));
      for (const e of shown.slice().reverse()) {
        list.appendChild(el("div", { class: "logline", "data-author": e.author }, el("span", { class: "slot", text: `[${e.slot}] ${e.author === "host" ? "(host) " : ""}` }), e.text));
      }
      list.prepend(el("div", { class: "choice-help", text: `${shown.length} of ${lines.length} lines, newest first` }));
    };
    for (const c of [pw, ph]) c.addEventListener("change", show);
    tx.addEventListener("input", show);
    f.append(pw, ph, tx);
    box.append(f, list);
    show();
  }

  // ------------------------------------------------------------ battles (eiapbem battle report --json)

  async function battles() {
    const box = panel("battles");
    let doc;
    try { doc = await EV.get("battles"); } catch (err) { return refused(box, err); }
    if (!doc.battles.length) box.appendChild(el("p", { text: "no battles in this game now (battles start in the naval and land phases)" }));
    const t = el("table", {}, el("tr", {}, el("th", { text: "battle" }), el("th", { text: "where" }), el("th", { text: "" })));
    for (const b of doc.battles) {
      t.appendChild(el("tr", {}, el("td", {}, el("a", { href: "#", "data-battle": b.id, text: b.id,
        on: { click: (ev) => { ev.preventDefault(); showBattle(b.id); } } })),
        el("td", { text: `${b.what} in ${b.place}` }), el("td", { text: b.finished ? "finished" : "in progress" })));
    }
    box.appendChild(t);
    box.appendChild(el("div", { id: "battle-report" }));
  }

  async function showBattle(id) {
    let out = document.getElementById("battle-report");
    if (!out) { await battles(); out = document.getElementById("battle-report"); }
    EV.clear(out);
    out.appendChild(el("h3", { text: id }));
    try {
      const [text, rec] = await Promise.all([EV.get("battle-text", { id }), EV.get("battle", { id })]);
      out.appendChild(el("pre", { class: "battle-text", "data-battle": text.id, text: text.text }));
      out.appendChild(el("details", {}, el("summary", { text: "the report's records (eiapbem battle report ID --json)" }), tree(rec)));
    } catch (err) { refused(out, err); }
  }

  // A document shown as it is: maps as lists of names and values, lists of like records as tables.
  function tree(v) {
    if (v === null || typeof v !== "object") return el("span", { text: v === null ? "—" : String(v) });
    if (Array.isArray(v)) {
      if (v.length && v.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
        const keys = [...new Set(v.flatMap((x) => Object.keys(x)))];
        return el("table", {}, el("tr", {}, keys.map((k) => el("th", { text: k }))),
          v.map((x) => el("tr", {}, keys.map((k) => el("td", {}, tree(x[k]))))));
      }
      return el("span", { text: v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join(", ") || "—" });
    }
    return el("div", { class: "tree" }, el("dl", {}, Object.entries(v).flatMap(([k, x]) => [el("dt", { text: k }), el("dd", {}, tree(x))])));
  }

  // ------------------------------------------------------------ economy (eiapbem economy summary --json)

  async function economy() {
    const box = panel("economy");
    let doc;
    try { doc = await EV.get("economy"); } catch (err) { return refused(box, err); }
    box.appendChild(el("p", { class: "choice-help", text: `Economic summary, ${doc.month}: a projection with the preview seed '${doc.seed}'` + (doc.note ? `; ${doc.note}` : "") }));
    for (const r of doc.funds) {
      box.appendChild(el("h3", { text: (r.fund === r.power ? r.power : `${r.power} / ${r.fund}`) + `: treasury $${r.opening_money}, manpower ${r.opening_manpower}` }));
      const t = el("table", {}, el("tr", {}, ["step", "item", "$", "mp", "pp", "vp"].map((h) => el("th", { text: h }))));
      for (const ln of r.lines) {
        t.appendChild(el("tr", { title: ln.detail || "" }, el("td", { text: ln.step }), el("td", { text: ln.item }),
          ...["money", "manpower", "political", "vp"].map((k) => el("td", { class: "num", text: ln[k] ? String(ln[k]) : "" }))));
      }
      t.appendChild(el("tr", {}, el("td", {}), el("th", { text: "closing" }), el("th", { class: "num", text: `$${r.closing_money}` }),
        el("th", { class: "num", text: String(r.closing_manpower) }), el("td", {}), el("td", {})));
      box.appendChild(t);
    }
  }

  // ------------------------------------------------------------ powers (eiapbem show power P --json, each)

  async function powers() {
    const box = panel("powers");
    let doc;
    try { doc = await EV.get("powers"); } catch (err) { return refused(box, err); }
    const t = el("table", { id: "powers-table" }, el("tr", {}, ["power", "treasury", "manpower", "political status", "VP", "at war with", "allied with", "on the map"].map((h) => el("th", { text: h }))));
    for (const p of doc.powers) {
      const om = p.on_map;
      t.appendChild(el("tr", { "data-power": p.power }, el("td", { text: `${p.name} (${p.power})` }), el("td", { class: "num", text: "$" + p.treasury }),
        el("td", { class: "num", text: String(p.manpower) }), el("td", { class: "num", text: String(p.political_status) }),
        el("td", { class: "num", text: String(p.victory_points) }), el("td", { text: p.wars.join(", ") || "—" }),
        el("td", { text: p.alliances.join(", ") || "—" }),
        el("td", { text: `${om.corps} corps` + (om.factors === null ? " (sizes hidden, fog of war)" : ` (${om.factors} factors), ${om.fleets} fleets (${om.ships} ships)`) })));
    }
    box.appendChild(t);
    box.appendChild(el("p", { class: "choice-help", text: "As 'eiapbem show power POWER --json' gives them; with Fog of War (4.1.1) the sizes of forces not yours or your allies' are hidden." }));
  }

  // ------------------------------------------------------------ the chart over the months (eiapbem show history --json)

  async function chart() {
    const box = panel("chart");
    let doc;
    try { doc = await EV.get("history"); } catch (err) { return refused(box, err); }
    const rows = [...doc.months, { ...doc.now, month: doc.now.month + " (now)" }];
    for (const [key, title] of [["political_status", "Political status"], ["victory_points", "Victory points"]]) {
      box.appendChild(el("h3", { text: title }));
      box.appendChild(lineChart(rows, key));
    }
    box.appendChild(el("p", { class: "choice-help", text: "From this folder's monthly saves (the start of each month's diplomacy phase) and the game now." }));
  }

  function lineChart(rows, key) {
    const W = 390, H = 170, L = 30, B = 22;
    const vals = rows.flatMap((r) => POWERS.map((p) => r.powers[p][key]));
    const lo = Math.min(0, ...vals), hi = Math.max(1, ...vals);
    const x = (i) => L + (rows.length === 1 ? (W - L) / 2 : (i * (W - L - 10)) / (rows.length - 1));
    const y = (v) => H - B - ((v - lo) * (H - B - 8)) / (hi - lo);
    const s = EV.sv("svg", { width: W, height: H, class: "chart", "data-chart": key });
    s.appendChild(EV.sv("line", { x1: L, y1: H - B, x2: W, y2: H - B, stroke: "#999" }));
    for (const v of [lo, hi]) s.appendChild(EV.sv("text", { x: 2, y: y(v) + 4, "font-size": 10 }, String(v)));
    rows.forEach((r, i) => s.appendChild(EV.sv("text", { x: x(i), y: H - 6, "font-size": 9, "text-anchor": "middle" }, r.month.slice(0, 7))));
    for (const p of POWERS) {
      const ink = EV.geometry.colours[p][1];
      s.appendChild(EV.sv("polyline", { points: rows.map((r, i) => `${x(i)},${y(r.powers[p][key])}`).join(" "), fill: "none", stroke: ink, "stroke-width": 2 }));
      const last = rows[rows.length - 1].powers[p][key];
      s.appendChild(EV.sv("text", { x: W - 4, y: y(last), "font-size": 9, "text-anchor": "end", fill: ink }, `${p} ${last}`));
    }
    return s;
  }

  // ------------------------------------------------------------ preferences (4.1.2)

  function prefs() {
    const box = panel("prefs");
    box.appendChild(el("p", { class: "choice-help", text: "The manual's user preferences (4.1.2), as this page has them; kept in this browser." }));
    for (const [key, name, help] of EV.PREFS) {
      let input;
      if (key === "scroll_delay") {
        input = el("input", { type: "range", min: "1", max: "10", value: String(EV.prefs[key]), id: "pref-" + key });
        input.addEventListener("input", () => { EV.prefs[key] = Number(input.value); EV.savePrefs(); });
      } else {
        input = el("input", { type: "checkbox", checked: Boolean(EV.prefs[key]), id: "pref-" + key });
        input.addEventListener("change", () => { EV.prefs[key] = input.checked; EV.savePrefs(); EV.refresh(); });
      }
      box.appendChild(el("div", { class: "field" }, el("label", { for: "pref-" + key }, input, " " + name), el("div", { class: "help", text: help })));
    }
    box.appendChild(el("p", { class: "choice-help", text: "Music and Sound Effects have no counterpart here: the page makes no sound." }));
  }

  // ------------------------------------------------------------ after every refresh

  async function seeAiMoves() {
    EV.docs.aiMoves = [];
    const st = EV.docs.status;
    if (!EV.prefs.see_ai_moves || !st.computer.length) return;
    try {
      const lines = await EV.get("log");
      const ai = new Set(st.computer.map((c) => c.power));
      EV.docs.aiMoves = lines.filter((e) => ai.has(e.author) && e.slot.startsWith(st.date) && (e.kind === "land.move" || e.kind === "naval.move")
        && e.params && e.params.to).map((e) => String(e.params.to).split(":").pop());
    } catch (err) { /* the marks are a convenience */ }
  }

  EV.hooks.refreshed.push(async () => {
    await seeAiMoves();
    EV.map.marks();
    const show = { status, orders, log, battles, economy, powers, chart, prefs }[EV.tab];
    if (show) show();
    const st = EV.docs.status;
    if (!EV.month && EV.tab !== "status" && st.pending.some((d) => st.plays.includes(d.power))) EV.showTab("status");
  });

  return { status, orders, log, battles, economy, powers, chart, prefs, placeMenu, showBattle };
})();
