/* footnote-pg demo: plain JavaScript, no framework, no external requests.
   Talks to the JSON API of footnote_pg/web/app.py. All text is inserted with textContent. */
"use strict";

(function () {
  const FALLBACK_SUGGESTIONS = [
    "How much does Bergmann owe?",
    "Is Bergmann Logistik at risk?",
    "Show AR aging",
    "How much does Acme Corporation owe?",
    "What will revenue be next quarter?",
  ];
  const STATUS = {
    verified: ["Verified", "Every figure matches what the catalog returned for the cited records."],
    partially_verified: ["Partially verified", "Every figure matches, but a source flags some of the facts as unverified."],
    insufficient_evidence: ["Insufficient evidence", "Some figures do not match what the cited calls returned."],
    ambiguous: ["Ambiguous", "The question fits several records; pick one."],
    refused: ["Refused", "No figure was given."],
    grounded: ["Grounded", "Cites evidence the calls read."],
    unverified: ["Unverified", ""],
    fabricated: ["Fabricated", ""],
    unsupported: ["Unsupported", ""],
  };
  const VERDICT = {
    grounded: "grounded: it equals the value the cited call returned",
    unverified: "unverified: the cited call did not return this value",
    fabricated: "fabricated: it cites a call or evidence that was never read",
  };
  const REASON = {
    value_mismatch: "the cited call returned a different value",
    span_mismatch: "the claim's position does not match the text",
    source_unverified: "the source flags this fact as unverified",
    call_not_listed: "it cites a call that is not one of the answer's calls",
    call_not_made: "it cites a call that was never made",
    evidence_not_read: "it cites evidence the call never read",
  };
  const REFUSAL = {
    forecast: "footnote-pg reports figures that are recorded; a forecast is not a recorded figure.",
    unknown_entity: "No record has that name, so there is nothing to cite.",
    not_covered: "No catalog operation answers this question.",
    invalid_argument: "The question asks for something the catalog operation cannot take.",
    ambiguous_entity: "The name fits several records.",
  };
  const ROW_CAP = 20;   /* records of a footnote shown before "… and N more" (an aging bucket may stand on hundreds) */
  const CARD_MAX = 6;   /* up to this many records of a type are shown as cards, more as a table */

  const $ = (id) => document.getElementById(id);
  /* locale: the answer's (the database's setting), so every number and date of the page reads one way */
  const state = { doc: null, model: false, selected: null, lastSeq: null, busy: false, locale: "de-DE", token: null };

  /* ---------- small DOM helpers ---------- */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  function statusBadge(status) {
    const [label] = STATUS[status] || [status];
    return el("span", { class: "status status-" + status, "data-status": status, text: label });
  }
  function verdictBadge(c) {
    const badge = statusBadge(c.verdict || "grounded");
    if (c.reason === "source_unverified") badge.className = "status status-advisory";
    return badge;
  }
  function announce(message) {
    const a = $("announcer");
    a.textContent = "";
    window.setTimeout(() => { a.textContent = message; }, 30);
  }
  function shortHash(h) { return h ? h.slice(0, 12) + "…" : ""; }

  /* ---------- one format per page: the answer's locale, as the catalog formats its figures ---------- */
  function setLocale(locale) {
    if (locale === "de-DE" || locale === "en-US") state.locale = locale;
  }
  const DATE = { "de-DE": { day: "2-digit", month: "2-digit", year: "numeric" },
                 "en-US": { month: "long", day: "numeric", year: "numeric" } };
  function count(n) { return Number(n).toLocaleString(state.locale); }
  function when(iso) {
    if (!iso) return "";
    const d = new Date(iso);
    return isNaN(d) ? iso : d.toLocaleString(state.locale, Object.assign({ hour: "2-digit", minute: "2-digit",
      second: "2-digit" }, DATE[state.locale]));
  }
  /* a field value the ERP holds: a date (YYYY-MM-DD) or a decimal in the locale, other text as it is */
  function fieldText(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "object") return JSON.stringify(v);
    const text = String(v);
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      const d = new Date(text + "T00:00:00Z");
      return isNaN(d) ? text : d.toLocaleDateString(state.locale, Object.assign({ timeZone: "UTC" }, DATE[state.locale]));
    }
    const m = /^-?\d+(?:\.(\d+))?$/.exec(text);
    if (m && text.length <= 15) {
      const digits = m[1] ? m[1].length : 0;
      return Number(text).toLocaleString(state.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }
    return text;
  }
  /* a reason code as words (the code itself stays in the element's title) */
  function reasonText(code) {
    return REASON[code] || String(code || "").replace(/_/g, " ");
  }

  async function api(path, options) {
    let response;
    try {
      const headers = Object.assign({ Accept: "application/json" }, (options || {}).headers || {});
      if (state.token) headers.Authorization = "Bearer " + state.token;
      response = await fetch(path, Object.assign({}, options || {}, { headers: headers }));
    } catch (e) {
      throw Object.assign(new Error("The demo server did not answer (" + e.message + ")."), { status: 0 });
    }
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const message = (body && body.error) || ("HTTP " + response.status);
      throw Object.assign(new Error(message), { status: response.status, body: body });
    }
    return body;
  }

  /* ---------- tabs ---------- */
  const tabs = () => [$("tab-ask"), $("tab-ledger")];
  function selectTab(tab, focus) {
    for (const t of tabs()) {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    }
    if (focus) tab.focus();
    if (tab.id === "tab-ledger") loadLedger();
  }
  function setupTabs() {
    for (const t of tabs()) {
      t.addEventListener("click", () => selectTab(t, false));
      t.addEventListener("keydown", (ev) => {
        const list = tabs();
        const i = list.indexOf(t);
        let next = null;
        if (ev.key === "ArrowRight") next = list[(i + 1) % list.length];
        else if (ev.key === "ArrowLeft") next = list[(i - 1 + list.length) % list.length];
        else if (ev.key === "Home") next = list[0];
        else if (ev.key === "End") next = list[list.length - 1];
        if (next) { ev.preventDefault(); selectTab(next, true); }
      });
    }
  }

  /* ---------- who is asking: the verified user and scope (the demo signs its sample users in) ---------- */
  async function showWho() {
    try {
      const who = await api("/api/whoami");
      const name = (who.actor && who.actor.id) || "(no actor)";
      const scope = who.scope ? "scope " + who.scope.id + " (" + who.scope.description + ")" : "every customer";
      $("who-text").textContent = "Asking as " + name + (who.verified ? " (verified token)" : "") + " · " + scope;
    } catch (e) {
      $("who-text").textContent = "Not signed in: " + e.message;
    }
  }
  async function signIn(user) {
    try {
      state.token = (await api("/demo/token?user=" + encodeURIComponent(user))).token;
    } catch (e) {
      state.token = null;
    }
    await showWho();
  }
  async function loadUsers() {
    let users = [];
    try { users = (await api("/demo/users")).users || []; } catch (e) { users = []; }
    if (users.length) {
      const select = $("who-user");
      select.replaceChildren(...users.map((u) => el("option", { value: u.id },
        u.name + " — " + u.scope_description)));
      select.addEventListener("change", () => signIn(select.value));
      $("who-switch").hidden = false;
      await signIn(users[0].id);
    } else {
      await showWho();
    }
  }

  /* ---------- suggestions and asking ---------- */
  async function loadSuggestions() {
    let list = FALLBACK_SUGGESTIONS;
    try { list = (await api("/api/suggestions")).suggestions || list; } catch (e) { /* keep the built-in list */ }
    const ul = $("suggestions");
    ul.replaceChildren(...list.map((q) => el("li", {}, el("button", {
      type: "button", class: "chip", onclick: () => ask(q),
    }, q))));
  }

  async function ask(question) {
    question = (question || "").trim();
    const input = $("question");
    if (!question) {
      showError("Type a question first.");
      input.focus();
      return;
    }
    if (state.busy) return;
    input.value = question;
    const trigger = document.activeElement;
    state.busy = true;
    const button = $("ask-button");
    button.disabled = true;
    button.textContent = "Asking…";
    $("answer").setAttribute("aria-busy", "true");
    closeEvidence(false);
    try {
      const doc = await api("/api/ask", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ question: question }),
      });
      state.doc = doc;
      setLocale(doc.locale);
      state.selected = null;
      if (doc.ledger) state.lastSeq = doc.ledger.seq;
      renderAnswer();
      if (trigger && !document.body.contains(trigger)) $("answer").focus();
      const view = currentView();
      announce((STATUS[view.status] || [view.status])[0] + ". " + countClaims(view));
    } catch (e) {
      showError(e.message);
    } finally {
      state.busy = false;
      button.disabled = false;
      button.textContent = "Ask";
      $("answer").setAttribute("aria-busy", "false");
    }
  }

  function countClaims(view) {
    const n = (view.claims || []).length;
    return n ? n + (n === 1 ? " cited figure." : " cited figures.") : "";
  }

  function showError(message) {
    $("answer-body").replaceChildren(el("p", { class: "error-box", role: "alert", text: message }));
  }

  /* ---------- the answer ---------- */
  function currentView() {
    const doc = state.doc;
    if (state.model && doc && doc.model_version && !doc.model_version.error) {
      const m = doc.model_version;
      return Object.assign({}, doc, {
        answer: m.answer, claims: m.claims, status: m.status, findings: m.findings,
        inference: m.inference, facts: m.facts, isModel: true, model: m,
      });
    }
    return Object.assign({}, doc, { isModel: false });
  }

  function renderAnswer() {
    const doc = state.doc;
    const body = $("answer-body");
    if (!doc) return;
    const view = currentView();
    const parts = [];

    if (state.model) {
      if (view.isModel) {
        parts.push(el("div", { class: "model-banner", role: "note" },
          el("strong", { text: "Written by the model, not by footnote-pg." }),
          "Same words, the model's own figures. Graded by the gate with footnote.check_answer; never recorded."));
      } else if (doc.model_version && doc.model_version.error) {
        parts.push(el("p", { class: "model-note", text: doc.model_version.error }));
      } else {
        parts.push(el("p", { class: "model-note",
          text: "Nothing for the model to rewrite: this answer contains no figures (footnote-pg asked back or refused before any number was produced)." }));
      }
    }

    const meta = el("div", { class: "answer-meta" },
      view.isModel ? el("span", { class: "status-note", text: "The gate says:" }) : null,
      statusBadge(view.status),
      el("span", { class: "status-note", text: (STATUS[view.status] || ["", ""])[1] }));
    parts.push(meta);
    parts.push(el("p", { class: "asked" }, "Question: ", el("q", { text: doc.question })));
    parts.push(renderText(view));

    if (doc.kind === "clarification" || (doc.options && doc.options.length)) {
      parts.push(el("ul", { class: "options", "aria-label": "Which one do you mean?" },
        (doc.options || []).map((o) => el("li", {}, el("button", {
          type: "button", class: "option", onclick: () => ask(o),
        }, o)))));
    }
    if (doc.status === "refused") {
      const why = REFUSAL[doc.reason] || reasonText(doc.reason || "refused") + ".";
      parts.push(el("p", { class: "why", title: doc.reason || "refused", "data-reason": doc.reason || "refused" },
        el("strong", { text: "Why refused: " }), why));
    }
    if (view.isModel) parts.push(renderFindings(view));
    if (view.claims && view.claims.length) {
      parts.push(el("p", { class: "legend" },
        view.isModel
          ? "Figures marked ✗ do not match what the cited call returned. Select any figure to see its records."
          : "Each highlighted value is a claim with a footnote. Select it (click, Enter or Space) to open its evidence."));
    }
    parts.push(renderReceipt(view));
    body.replaceChildren(...parts);
  }

  function claimOrder(view) {
    return (view.claims || []).map((c, i) => [c, i]).sort((a, b) => a[0].span.start - b[0].span.start);
  }

  /* text [start, end) of the view's answer with claims as buttons */
  function renderRange(view, start, end) {
    const frag = document.createDocumentFragment();
    const text = view.answer;
    let pos = start;
    for (const [c, i] of claimOrder(view)) {
      const s = c.span.start, e = c.span.end;
      if (s < pos || s < start || e > end) continue;
      if (s > pos) frag.append(text.slice(pos, s));
      frag.append(claimButton(view, c, i));
      pos = e;
    }
    if (pos < end) frag.append(text.slice(pos, end));
    return frag;
  }

  function claimButton(view, c, i) {
    const verdict = c.verdict || "grounded";
    const bad = verdict !== "grounded";
    const n = c.footnote || i + 1;
    let label = c.text + ", footnote " + n + ", " + verdict;
    if (view.isModel && c.changed) label += " (the call returned " + c.original + ")";
    label += ". Show evidence";
    const advisory = c.reason === "source_unverified";
    const button = el("button", {
      type: "button", class: "claim v-" + verdict + (advisory ? " v-advisory" : ""), "data-claim": i, "data-verdict": verdict,
      "aria-expanded": state.selected === i ? "true" : "false", "aria-controls": "evidence",
      "aria-label": label, title: bad ? (STATUS[verdict] || [verdict])[0] + ": " + reasonText(c.reason) : "Show the evidence",
      onclick: () => openEvidence(i, button), "data-footnote": n,  /* shown by CSS (::after), so copied text stays the answer's text */
    }, bad ? el("span", { class: "mark", "aria-hidden": "true" }) : null, c.text);
    return button;
  }

  function renderText(view) {
    const text = view.answer || "";
    const box = el("div", { class: "answer-text" });
    if (view.options && view.options.length) {  /* the options become buttons below */
      const cut = text.indexOf("\n- ");
      box.append(el("p", {}, renderRange(view, 0, cut >= 0 ? cut : text.length)));
      return box;
    }
    const facts = (view.facts || []).slice().sort((a, b) => a.start - b.start);
    let headEnd = text.length;
    if (facts.length) {
      const nl = text.lastIndexOf("\n", facts[0].start);
      headEnd = nl >= 0 ? nl : facts[0].start;
    }
    const inf = view.inference;
    if (inf && inf.end <= headEnd) {
      if (inf.start > 0) box.append(el("p", {}, renderRange(view, 0, inf.start)));
      box.append(el("p", { class: "inference" },
        el("span", { class: "tag tag-inference", text: "Inference" }),
        renderRange(view, inf.start, inf.end)));
      const rest = text.slice(inf.end, headEnd);
      if (rest.trim()) {
        const lead = rest.length - rest.replace(/^\s+/, "").length;
        box.append(el("p", {}, renderRange(view, inf.end + lead, headEnd)));
      }
    } else if (headEnd > 0) {
      box.append(el("p", {}, renderRange(view, 0, headEnd)));
    }
    if (facts.length) {
      const ul = el("ul", { class: "facts", "aria-label": inf ? "The facts behind the inference" : "Details" });
      facts.forEach((f, k) => {
        ul.append(el("li", {}, inf ? el("span", { class: "tag tag-fact", text: "Fact" }) : null,
          renderRange(view, f.start, f.end)));
        const next = k + 1 < facts.length ? facts[k + 1].start : text.length;
        const gap = text.slice(f.end, next).replace(/\n- $/, "");
        if (gap.trim()) ul.append(el("li", {}, renderRange(view, f.end, f.end + gap.length)));
      });
      box.append(ul);
    }
    return box;
  }

  function renderFindings(view) {
    const claims = view.claims || [];
    const changed = claims.filter((c) => c.changed);
    const notGrounded = claims.filter((c) => c.verdict !== "grounded");
    const positions = (view.findings || []).filter((f) => f.code === "unsupported_digits")
      .flatMap((f) => f.positions || []);
    const items = [];
    if (changed.length) {
      items.push(el("li", {}, changed.length + " figure" + (changed.length === 1 ? " was" : "s were")
        + " changed by the model; " + notGrounded.length + " claim" + (notGrounded.length === 1 ? " is" : "s are")
        + " not grounded (" + [...new Set(notGrounded.map((c) => (STATUS[c.verdict] || [c.verdict])[0].toLowerCase()
          + ": " + reasonText(c.reason)))].join("; ") + ")."));
    }
    if (positions.length) {
      items.push(el("li", { title: "unsupported_digits" }, positions.length
        + " digits of the text are outside any grounded claim (first at position " + positions[0].position + ")."));
    }
    const sentences = (view.model && view.model.sentences) || [];
    const verdicts = el("ol", { class: "sentences", "aria-label": "The gate's verdict on each sentence" },
      sentences.map((s) => el("li", { class: "sentence verdict-" + s.verdict, "data-verdict": s.verdict },
        el("span", { class: "verdict", title: s.verdict, text: (STATUS[s.verdict] || [reasonText(s.verdict)])[0] }),
        el("span", { class: "sentence-text", text: s.text }),
        s.reasons && s.reasons.length ? el("span", { class: "reasons", title: s.reasons.join(", "),
          text: " (" + s.reasons.map(reasonText).join("; ") + ")" }) : null)));
    return el("section", { class: "findings", "aria-label": "What the gate found" },
      el("h3", { text: "What the gate found" }), el("ul", {}, items),
      sentences.length ? el("h3", { text: "Sentence by sentence" }) : null, sentences.length ? verdicts : null);
  }

  function renderReceipt(view) {
    if (view.isModel) {
      const calls = (view.model.checked_against || []).map((c) => c.operation).join(", ");
      return el("p", { class: "receipt" },
        "Not recorded in the ledger. Graded against the answer's own calls of " + (calls || "the same operations") + ".");
    }
    const l = view.ledger;
    if (!l) return el("p", { class: "receipt", text: "Not recorded." });
    return el("p", { class: "receipt" },
      el("span", {}, "Recorded in the ledger as ", el("strong", { "data-seq": l.seq, text: "#" + l.seq }),
        " · hash ", el("code", { title: l.hash, text: shortHash(l.hash) })),
      el("button", { type: "button", class: "to-ledger", onclick: () => selectTab($("tab-ledger"), true) },
        "See it in the ledger"));
  }

  /* ---------- the evidence panel ---------- */
  function evidenceIndex() {
    const idx = {};
    for (const e of (state.doc && state.doc.evidence) || []) idx[e.id] = e;
    return idx;
  }

  function openEvidence(i, trigger) {
    const view = currentView();
    const c = view.claims[i];
    if (!c) return;
    state.selected = i;
    state.trigger = trigger || null;
    for (const b of document.querySelectorAll(".claim")) {
      b.setAttribute("aria-expanded", b.getAttribute("data-claim") === String(i) ? "true" : "false");
    }
    const body = $("evidence-body");
    const verdict = c.verdict || "grounded";
    const call = (view.calls || []).find((k) => k.call_id === c.call_id);
    const summary = el("div", { class: "claim-summary" },
      el("p", {}, el("span", { class: "figure", text: c.text }), " ", verdictBadge(c)),
      el("p", { class: "status-note" }, "Footnote " + (c.footnote || i + 1)
        + (call ? " · from " : ""), call ? el("code", { text: call.operation }) : null,
        c.value ? " · value " : null, c.value ? el("code", { text: c.value }) : null),
      el("p", { class: "status-note", text: VERDICT[verdict] || verdict }));
    if (view.isModel && c.changed) {
      summary.append(el("p", { class: "mismatch" }, "The model wrote ", el("strong", { text: c.text }),
        "; the cited call returned ", el("strong", { text: c.original }), ". The records below are what it cites."));
    } else if (verdict !== "grounded") {
      summary.append(el("p", { class: "mismatch", title: c.reason || verdict, text: reasonText(c.reason || verdict) }));
    }
    const idx = evidenceIndex();
    const records = (c.evidence || []).map((id) => idx[id] || { id: id, type: id.split(":")[0], uri: null, fields: {} });
    const parts = [summary];
    if (!records.length) {
      parts.push(el("p", { class: "hint", text:
        "No ERP record stands behind this figure: it is an argument of the call (such as the as-of date) or a label, returned by the catalog operation itself." }));
    } else {
      parts.push(el("p", { class: "status-note", text:
        records.length + (records.length === 1 ? " record" : " records") + " behind this figure, with the field values the call read:" }));
      const byType = new Map();
      for (const r of records) {
        if (r.type === "evidence_set") { parts.push(evidenceSet(c.call_id, r)); continue; }
        if (!byType.has(r.type)) byType.set(r.type, []);
        byType.get(r.type).push(r);
      }
      for (const [type, rows] of byType) parts.push(evidenceTable(type, rows));
    }
    body.replaceChildren(...parts);
    $("record").hidden = true;
    $("evidence").hidden = false;
    document.querySelector(".layout").classList.add("with-evidence");
    $("evidence-title").textContent = "Evidence for " + c.text;
    $("evidence-title").focus({ preventScroll: window.innerWidth > 900 });
    if (window.innerWidth <= 900) $("evidence").scrollIntoView({ block: "start" });
  }

  /* An evidence set: the records a figure stands on when they were too many to inline, by count and digest;
     its rows are read again from the ERP a page at a time (GET /api/evidence). */
  function evidenceSet(callId, r) {
    const f = r.fields || {};
    const total = Number(f.rows || 0);
    const kind = String(f.of || "record").replace(/_/g, " ");
    const group = el("section", { class: "ev-group ev-set", "data-evidence": r.id });
    group.append(el("h3", { text: count(total) + " " + kind + (total === 1 ? " record" : " records")
      + " (evidence set)" }));
    group.append(el("p", { class: "hint", text: "Too many to carry in the answer: the call cites them by count and "
      + "digest (" + String(f.digest || "").slice(0, 16) + "…), and they are read again from the ERP with the "
      + "call's own parameters." }));
    const holder = el("div", {});
    group.append(holder);
    const load = async (offset) => {
      const more = group.querySelector(".show-all");
      if (more) more.remove();
      try {
        const page = await api("/api/evidence?call_id=" + encodeURIComponent(callId) + "&set="
          + encodeURIComponent(r.id) + "&offset=" + offset);
        const rows = page.rows;
        if (!rows.length) return;
        holder.append(el("p", { class: "status-note", text: "Rows " + count(rows[0].n) + "–" + count(rows[rows.length - 1].n)
          + " of " + count(total) + ":" }), evidenceTable(rows[0].type, rows, true));
        const next = offset + rows.length;
        if (rows.length === page.limit && next < total) {
          group.append(el("button", { type: "button", class: "show-all", onclick: () => load(next) },
            "Next " + Math.min(page.limit, total - next) + " of " + count(total - next) + " more"));
        }
      } catch (e) {
        holder.append(el("p", { class: "mismatch", text: e.message }));
      }
    };
    load(0);
    return group;
  }

  function evidenceTable(type, rows, showAll) {
    const keys = [];
    for (const r of rows) for (const k of Object.keys(r.fields || {})) if (!keys.includes(k)) keys.push(k);
    const first = ["number", "name", "subject", "sku", "customer_number", "supplier_number"];
    keys.sort((a, b) => (first.includes(a) ? first.indexOf(a) : 99) - (first.includes(b) ? first.indexOf(b) : 99));
    const shown = showAll ? rows : rows.slice(0, ROW_CAP);
    const group = el("section", { class: "ev-group", "data-type": type });
    const title = count(rows.length) + " " + type.replace(/_/g, " ") + (rows.length === 1 ? " record" : " records");
    group.append(el("h3", { text: title }));
    const show = fieldText;
    const raw = (v) => (v === null || v === undefined || typeof v === "object" ? null : String(v));
    const link = (r) => r.uri
      ? el("button", { type: "button", class: "uri", "aria-label": "Open " + r.uri, onclick: () => openRecord(r.uri) }, r.uri)
      : el("span", { class: "mono", text: r.id });
    const flag = (r) => r.verified === false ? el("span", { class: "unverified-source", text: " (unverified in source)" }) : null;
    if (rows.length <= CARD_MAX) {  /* a few records: every field visible, one card each */
      group.append(el("ul", { class: "ev-cards" }, rows.map((r) => el("li", { class: "ev-card", "data-evidence": r.id },
        el("p", { class: "ev-card-head" }, link(r), flag(r)),
        el("dl", {}, keys.map((k) => [el("dt", { text: k.replace(/_/g, " ") }),
          el("dd", { title: raw((r.fields || {})[k]), text: show((r.fields || {})[k]) })]))))));
      return group;
    }
    const table = el("table", {},
      el("caption", { class: "visually-hidden", text: title }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Deep link" }),
        keys.map((k) => el("th", { scope: "col", text: k.replace(/_/g, " ") })))),
      el("tbody", {}, shown.map((r) => el("tr", { "data-evidence": r.id },
        el("td", {}, link(r), flag(r)),
        keys.map((k) => {
          const v = raw((r.fields || {})[k]);
          return el("td", { class: v !== null && /^-?\d+(\.\d+)?$/.test(v) ? "num" : null, title: v,
                            text: show((r.fields || {})[k]) });
        })))));
    group.append(el("div", { class: "table-scroll" }, table));
    if (!showAll && rows.length > ROW_CAP) {
      const more = rows.length - ROW_CAP;
      group.append(el("p", { class: "more", "data-more": more,
        text: "… and " + count(more) + " more " + type.replace(/_/g, " ")
          + (more === 1 ? " record" : " records") }));
      group.append(el("button", { type: "button", class: "show-all", onclick: () => {
        const replacement = evidenceTable(type, rows, true);
        group.replaceWith(replacement);
        const first = replacement.querySelector("tbody tr:nth-child(" + (ROW_CAP + 1) + ") .uri");
        if (first) first.focus();
      } }, "Show all " + rows.length));
    }
    return group;
  }

  async function openRecord(uri) {
    const section = $("record");
    const body = $("record-body");
    section.hidden = false;
    $("record-title").textContent = "Source record " + uri;
    body.replaceChildren(el("p", { class: "hint", text: "Opening " + uri + "…" }));
    try {
      const r = await api("/api/record?uri=" + encodeURIComponent(uri));
      const dl = el("dl", {});
      for (const [k, v] of Object.entries(r.fields || {})) {
        dl.append(el("dt", { text: k.replace(/_/g, " ") }),
          el("dd", { title: v === null || typeof v === "object" ? null : String(v), text: v === null ? "—" : fieldText(v) }));
      }
      body.replaceChildren(
        el("p", { class: "status-note" }, "The " + r.type.replace(/_/g, " ") + " " + r.record_id
          + " as it is now, read through the source views by ", el("code", { text: "source_record" }),
          r.verified === false ? " (flagged unverified in the source)" : "", "."),
        dl);
    } catch (e) {
      body.replaceChildren(el("p", { class: "error-box", role: "alert", text: e.message }));
    }
    $("record-title").focus();
  }

  function closeEvidence(restoreFocus) {
    const wasOpen = !$("evidence").hidden;
    $("evidence").hidden = true;
    document.querySelector(".layout").classList.remove("with-evidence");
    for (const b of document.querySelectorAll(".claim")) b.setAttribute("aria-expanded", "false");
    const trigger = state.trigger;
    state.selected = null;
    state.trigger = null;
    if (restoreFocus && wasOpen && trigger && document.body.contains(trigger)) trigger.focus();
  }

  /* ---------- the ledger ---------- */
  let ledgerLoading = false;
  async function loadLedger() {
    if (ledgerLoading) return;
    ledgerLoading = true;
    const status = $("chain-status");
    const body = $("ledger-body");
    status.replaceChildren(el("p", { class: "hint", text: "Verifying the chain…" }));
    try {
      const data = await api("/api/ledger?limit=20");
      setLocale(data.locale);
      status.replaceChildren(renderChain(data.chain));
      body.replaceChildren(renderLedgerTable(data.records, data.chain));
    } catch (e) {
      if (e.status === 403) {
        const parts = [el("p", { class: "notice", role: "status" },
          el("strong", { text: "The ledger is not readable with this connection. " }),
          e.message.charAt(0).toUpperCase() + e.message.slice(1)
          + ": start the demo with a database URL whose role is in that group.")];
        if (e.body && e.body.chain) parts.push(renderChain(e.body.chain));
        status.replaceChildren(...parts);
        body.replaceChildren();
      } else {
        status.replaceChildren(el("p", { class: "error-box", role: "alert", text: e.message }));
        body.replaceChildren();
      }
    } finally {
      ledgerLoading = false;
    }
  }

  function renderChain(chain) {
    if (chain.ok) {
      return el("div", { class: "chain ok", "data-chain": "ok" },
        el("div", {},
          el("span", { class: "big", text: "✓ Chain intact" }),
          el("p", {}, count(chain.records) + (chain.records === 1 ? " record" : " records") + " verified"
            + (chain.head_seq ? "; head #" + chain.head_seq + " · hash " : ""),
            chain.head_hash ? el("code", { title: chain.head_hash, text: shortHash(chain.head_hash) }) : null,
            chain.pending ? " · " + chain.pending + " waiting to be sealed" : "")));
    }
    const bad = chain.first_bad;
    return el("div", { class: "chain bad", "data-chain": "broken", role: "alert" },
      el("div", {},
        el("span", { class: "big", text: "✗ Chain broken at record #" + chain.first_bad_seq }),
        el("p", {}, el("strong", { text: chain.problem || "problem" }), chain.detail ? ": " + chain.detail : ""),
        bad ? el("p", {}, "First bad record: #" + bad.seq + ", " + when(bad.recorded_at) + ", "
          + (bad.actor || "—") + ", “" + (bad.question || "") + "”, " + (STATUS[bad.status] || [bad.status])[0] + ", hash ",
          el("code", { text: bad.hash })) : null));
  }

  function renderLedgerTable(records, chain) {
    if (!records.length) return el("p", { class: "hint", text: "The ledger is empty: ask a question." });
    return el("div", { class: "table-scroll" }, el("table", { class: "ledger-table" },
      el("caption", { text: records.length === 1 ? "The only record" : "The latest " + records.length + " records, newest first" }),
      el("thead", {}, el("tr", {}, ["Seq", "Recorded", "Actor", "Question", "Status", "Hash"].map(
        (h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, records.map((r) => {
        const cls = [r.seq === state.lastSeq ? "current" : "", chain && r.seq === chain.first_bad_seq ? "bad" : ""]
          .filter(Boolean).join(" ");
        return el("tr", { class: cls || null, "data-seq": r.seq },
          el("td", { class: "num", text: "#" + r.seq }),
          el("td", { title: r.recorded_at, text: when(r.recorded_at) }),
          el("td", { text: (r.actor || "—") + (r.actor_role ? " (" + r.actor_role + ")" : "") }),
          el("td", { class: "q" }, r.question || (r.kind === "decision" ? "(agent decision)" : "—"),
            r.seq === state.lastSeq ? el("span", { class: "status-note", text: " — this answer" }) : null),
          el("td", {}, statusBadge(r.status)),
          el("td", {}, el("code", { title: r.hash_full, text: r.hash })));
      }))));
  }

  /* ---------- wiring ---------- */
  function init() {
    setupTabs();
    loadUsers().then(loadSuggestions);
    $("ask-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      ask($("question").value);
    });
    $("model-toggle").addEventListener("change", (ev) => {
      state.model = ev.target.checked;
      const selected = state.selected;
      closeEvidence(false);
      renderAnswer();
      if (state.doc) {
        const view = currentView();
        announce(view.isModel ? "Showing the model-written version. The gate says: "
          + (STATUS[view.status] || [view.status])[0] + "." : "Showing footnote-pg's answer.");
      }
      if (selected !== null && state.doc) {
        const b = document.querySelector('.claim[data-claim="' + selected + '"]');
        if (b) openEvidence(selected, b);
        ev.target.focus();
      }
    });
    $("evidence-close").addEventListener("click", () => closeEvidence(true));
    $("evidence").addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") { ev.preventDefault(); closeEvidence(true); }
    });
    $("ledger-refresh").addEventListener("click", loadLedger);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
