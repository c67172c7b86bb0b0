// The students' page (docs/class_server.md): join with the code, then follow
// the teacher's steps by polling GET /api/step once a second; vote (and
// change the vote) with POST /api/vote until the answer is shown. Every text
// from the server is set with textContent, never parsed as HTML.
"use strict";

const POLL_MS = 1000;
const TOKEN_KEY = "cudaviz-class-token";
const $ = (id) => document.getElementById(id);

let token = sessionStorage.getItem(TOKEN_KEY) || "";
let state = null;      // the last GET /api/step answer
let pending = null;    // a vote being sent: {round, choice} or {round, value}
let pollTimer = 0;
let backoff = 0;
let votes = 0;         // votes sent: a poll asked before the last one is stale

function show(el, on) { el.hidden = !on; }
function text(el, s) { el.textContent = s == null ? "" : String(s); }

function fmt(x) {
  if (typeof x !== "number" || !isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return x.toExponential(2);
  return String(Number(x.toPrecision(4)));
}

async function api(method, path, body) {
  const opts = { method, headers: {}, cache: "no-store" };
  if (token) opts.headers["X-Class-Token"] = token;
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = {};
  try { data = await res.json(); } catch (e) { data = {}; }
  return { status: res.status, data };
}

// ---- join ----

async function join(ev) {
  ev.preventDefault();
  const code = $("code").value.trim().toUpperCase();
  text($("join-error"), "");
  if (!/^[A-Z0-9]{4,6}$/.test(code)) {
    text($("join-error"), "The code has 4 to 6 letters and digits.");
    return;
  }
  $("join").disabled = true;
  try {
    const r = await api("POST", "/api/join", { code });
    if (r.status === 200 && typeof r.data.token === "string") {
      token = r.data.token;
      sessionStorage.setItem(TOKEN_KEY, token);
      showVote();
      poll();
    } else if (r.status === 429) {
      text($("join-error"), "Too many tries: wait a few seconds.");
    } else {
      text($("join-error"), r.data.error === "wrong code" ? "Wrong code: look at the screen again." :
                                                            (r.data.error || "Could not join."));
    }
  } catch (e) {
    text($("join-error"), "No connection to the teacher's computer.");
  } finally {
    $("join").disabled = false;
  }
}

function showJoin(message) {
  token = "";
  sessionStorage.removeItem(TOKEN_KEY);
  clearTimeout(pollTimer);
  show($("join-view"), true);
  show($("vote-view"), false);
  text($("join-error"), message || "");
  text($("lesson"), "");
  text($("step"), "");
}

function showVote() {
  show($("join-view"), false);
  show($("vote-view"), true);
}

// ---- follow the teacher ----

async function poll() {
  clearTimeout(pollTimer);
  const asked = votes;
  try {
    const r = await api("GET", "/api/step");
    if (r.status === 403) { showJoin("The class was restarted: join again with the new code."); return; }
    if (r.status === 429) backoff = Math.min(8000, backoff + 1000);
    if (r.status === 200 && asked === votes) { backoff = 0; render(r.data); }
  } catch (e) {
    text($("status"), "Reconnecting...");
    backoff = Math.min(8000, backoff + 1000);
  }
  pollTimer = setTimeout(poll, POLL_MS + backoff);
}

function myVote(s) {
  if (pending && pending.round === s.round) return pending;
  return s.your_vote;
}

function render(s) {
  const roundChanged = !state || state.round !== s.round;
  state = s;
  text($("lesson"), s.lesson || "");
  text($("step"), s.step ? "Step " + s.step + " of " + s.steps : "");
  const asks = s.kind === "choice" || s.kind === "number";
  text($("question"), asks ? s.question : (s.step ? s.title : "Waiting for the teacher's question"));
  const mine = myVote(s);

  // Choices: one big button each.
  const box = $("choices");
  if (s.kind === "choice") {
    if (roundChanged || box.children.length !== s.choices.length) {
      box.replaceChildren();
      s.choices.forEach((label, i) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "choice";
        b.dataset.index = String(i);
        const name = document.createElement("span");
        name.textContent = label;
        const mark = document.createElement("span");
        mark.className = "mark";
        b.append(name, mark);
        b.addEventListener("click", () => vote({ choice: i }));
        box.append(b);
      });
    }
    Array.from(box.children).forEach((b, i) => {
      const on = !!mine && mine.choice === i;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.disabled = !s.open;
      let mark = on ? "your vote" : "";
      if (s.revealed && s.result && s.result.correct === i) mark = on ? "right!" : "measured";
      b.querySelector(".mark").textContent = mark;
    });
  } else {
    box.replaceChildren();
  }

  // A number: the field and Send.
  show($("number-form"), s.kind === "number");
  if (s.kind === "number") {
    text($("unit"), s.unit ? " (" + s.unit + ")" : "");
    $("number").disabled = !s.open;
    $("send").disabled = !s.open;
    if (roundChanged) $("number").value = "";
  }

  // Status line.
  let status = "";
  if (asks && s.open) {
    if (mine && s.kind === "choice") status = "Voted: " + s.choices[mine.choice] + ". Tap another to change it.";
    else if (mine) status = "Sent: " + fmt(mine.value) + (s.unit ? " " + s.unit : "") + ". Send again to change it.";
    else status = "Vote now: the answer comes after the run.";
  } else if (asks && !s.revealed) {
    status = "Votes are closed: the app is measuring...";
  } else if (asks && s.revealed) {
    status = s.voted + " of " + s.joined + " voted.";
  }
  text($("status"), status);

  // The reveal: the measurement beside how the class voted.
  show($("result"), !!(asks && s.revealed && s.result));
  if (asks && s.revealed && s.result) {
    text($("measured"), s.result.measured || "-");
    drawResult($("bars"), s, s.result);
    const shown = $("shown");
    shown.replaceChildren();
    (s.result.shown || []).forEach((v) => {
      const li = document.createElement("li");
      li.textContent = v.label + ": " + v.value;
      shown.append(li);
    });
    text($("verdict"), s.result.verdict || "");
  }

  // Between questions: the last answer stays in view.
  const last = s.last_result;
  const showLast = !asks && !!last && !!last.result;
  show($("last"), showLast);
  if (showLast) {
    text($("last-question"), last.question);
    text($("last-measured"), last.result.measured || "-");
    drawResult($("last-bars"), last, last.result);
  }
}

function drawResult(el, q, r) {
  el.replaceChildren();
  if (q.kind === "choice" && Array.isArray(r.counts)) {
    const total = Math.max(1, r.counts.reduce((a, b) => a + b, 0));
    q.choices.forEach((label, i) => {
      const row = document.createElement("div");
      row.className = "bar" + (r.correct === i ? " right" : "");
      const fill = document.createElement("div");
      fill.className = "fill";
      fill.style.width = (100 * r.counts[i] / total).toFixed(1) + "%";
      const name = document.createElement("span");
      name.textContent = label + (r.correct === i ? "  (measured)" : "");
      const n = document.createElement("span");
      n.className = "n";
      n.textContent = String(r.counts[i]);
      row.append(fill, name, n);
      el.append(row);
    });
  } else if (q.kind === "number" && r.histogram && Array.isArray(r.histogram.counts)) {
    const h = r.histogram;
    const top = Math.max(1, ...h.counts);
    const bars = document.createElement("div");
    bars.className = "hist";
    const v = r.measured_value;
    h.counts.forEach((c, i) => {
      const d = document.createElement("div");
      d.style.height = (100 * c / top).toFixed(1) + "%";
      if (typeof v === "number" && v >= h.edges[i] && v <= h.edges[i + 1]) d.className = "holds";
      d.title = c + " between " + fmt(h.edges[i]) + " and " + fmt(h.edges[i + 1]);
      bars.append(d);
    });
    const axis = document.createElement("div");
    axis.className = "axis";
    const lo = document.createElement("span");
    lo.textContent = fmt(h.edges[0]);
    const mid = document.createElement("span");
    mid.textContent = typeof r.median === "number" ? "class median " + fmt(r.median) : "";
    const hi = document.createElement("span");
    hi.textContent = fmt(h.edges[h.edges.length - 1]) + (h.log ? " (log)" : "");
    axis.append(lo, mid, hi);
    el.append(bars, axis);
  }
}

// ---- vote ----

async function vote(v) {
  if (!state || !state.open) return;
  const body = Object.assign({ token, round: state.round }, v);
  pending = Object.assign({ round: state.round }, v);
  ++votes;
  render(state);
  try {
    const r = await api("POST", "/api/vote", body);
    if (r.status === 403) { showJoin("Join again with the code."); return; }
    if (r.status !== 200) {
      pending = null;
      text($("status"), r.data.error || "The vote was not counted.");
      poll();
      return;
    }
    if (state && state.round === pending.round) state.your_vote = v;
    pending = null;
    render(state);
  } catch (e) {
    pending = null;
    text($("status"), "No connection: the vote was not sent.");
  }
}

function sendNumber(ev) {
  ev.preventDefault();
  const x = Number($("number").value);
  if ($("number").value.trim() === "" || !isFinite(x)) {
    text($("status"), "Type a number.");
    return;
  }
  vote({ value: x });
}

document.addEventListener("DOMContentLoaded", () => {
  $("join-form").addEventListener("submit", join);
  $("number-form").addEventListener("submit", sendNumber);
  // A code in the address (#ABCDE, from a QR code that carries it) fills the field.
  const fromHash = location.hash.replace(/^#/, "").toUpperCase();
  if (/^[A-Z0-9]{4,6}$/.test(fromHash)) $("code").value = fromHash;
  if (token) { showVote(); poll(); } else { showJoin(""); }
});
