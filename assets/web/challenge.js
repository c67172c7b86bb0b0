// The challenge page (docs/class_server.md, "Challenge mode"): join with the
// code and a display name, write the kernel in the editor (Debian's CodeMirror
// 5 served by the app; a plain text box when it is not installed), submit it,
// and read the verdict: compile errors marked at their lines, wrong with the
// first failing case, the time against the built-ins, explain's findings; and
// the leaderboard. Every text from the server is set with textContent.
"use strict";

const TOKEN_KEY = "cudaviz-class-token";
const DRAFT_KEY = "cudaviz-challenge-draft";
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem(TOKEN_KEY) || "";
let editor = null;        // CodeMirror, or null: the plain text box
let marked = [];          // lines marked in the editor
let waiting = 0;          // the submission id whose verdict is awaited (0: none)
let shownVerdict = "";    // what the verdict section shows (to redraw only on change)
let info = null;          // GET /api/challenge

function text(el, s) { el.textContent = s == null ? "" : String(s); }
function show(el, on) { el.hidden = !on; }

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

function source() { return editor ? editor.getValue() : $("source").value; }
function setSource(s) { if (editor) editor.setValue(s); else $("source").value = s; }

function makeEditor() {
  const ta = $("source");
  if (typeof window.CodeMirror === "function") {
    editor = window.CodeMirror.fromTextArea(ta, {
      mode: "text/x-c++src", lineNumbers: true, matchBrackets: true, indentUnit: 2,
      tabSize: 2, viewportMargin: Infinity, lineWrapping: false });
    editor.on("change", () => sessionStorage.setItem(DRAFT_KEY, source()));
  } else {
    text($("editor-note"), "The code editor (Debian's libjs-codemirror) is not installed on the teacher's " +
         "computer: a plain text box, without colours or line numbers.");
    show($("editor-note"), true);
    ta.addEventListener("input", () => sessionStorage.setItem(DRAFT_KEY, source()));
  }
}

function markLines(marks) {
  if (!editor) return;
  marked.forEach((l) => { editor.removeLineClass(l, "background", "cm-error-line");
                          editor.removeLineClass(l, "background", "cm-warning-line"); });
  marked = [];
  (marks || []).forEach((m) => {
    if (typeof m.line !== "number" || m.line < 1 || m.line > editor.lineCount()) return;
    const l = m.line - 1;
    editor.addLineClass(l, "background", m.severity === "error" ? "cm-error-line" : "cm-warning-line");
    marked.push(l);
  });
}

// ---- join ----

async function join(ev) {
  ev.preventDefault();
  const code = $("code").value.trim().toUpperCase();
  const name = $("name").value.trim();
  text($("join-error"), "");
  if (!/^[A-Z0-9]{4,6}$/.test(code)) { text($("join-error"), "The code has 4 to 6 letters and digits."); return; }
  $("join").disabled = true;
  try {
    if (!token) {
      const r = await api("POST", "/api/join", { code });
      if (r.status !== 200 || typeof r.data.token !== "string") {
        text($("join-error"), r.data.error || "Could not join.");
        return;
      }
      token = r.data.token;
      sessionStorage.setItem(TOKEN_KEY, token);
    }
    const n = await api("POST", "/api/name", { token, name });
    if (n.status !== 200) { text($("join-error"), n.data.error || "That name was refused."); return; }
    start();
  } catch (e) {
    text($("join-error"), "No connection to the teacher's computer.");
  } finally {
    $("join").disabled = false;
  }
}

// ---- the challenge ----

async function start() {
  const r = await api("GET", "/api/challenge");
  if (r.status === 403) { token = ""; sessionStorage.removeItem(TOKEN_KEY); show($("join-view"), true); return; }
  if (r.status !== 200) { setTimeout(start, 2000); return; }
  if (!r.data.name) { show($("join-view"), true); show($("work-view"), false); return; }
  info = r.data;
  show($("join-view"), false);
  show($("work-view"), true);
  text($("title"), info.template ? "Challenge: " + info.template : "Waiting for the teacher's challenge");
  text($("goal"), !info.goal ? "" : info.goal.kind === "target"
       ? "Goal: correct, and at most " + info.goal.target_ms + " ms" : "Goal: correct first, then fastest");
  text($("description"), info.description || "");
  text($("reference"), info.reference ? "Checked against " + info.reference +
                        (info.tolerance && info.tolerance !== "exact" ? ", within " + info.tolerance : ", exactly") + "." : "");
  text($("declaration"), info.declaration || "");
  if (!editor && !$("editor-note").textContent) makeEditor();
  if (!source().trim()) setSource(sessionStorage.getItem(DRAFT_KEY) || info.starter || "");
  deadline();
  poll();
}

function deadline() {
  const s = info && info.seconds_left;
  text($("deadline"), typeof s === "number" ? (s > 0 ? Math.floor(s / 60) + " min " + Math.floor(s % 60) +
       " s left" : "The deadline has passed.") : "");
}

async function submit() {
  const src = source();
  if (!src.trim()) { text($("submit-status"), "Write a kernel first."); return; }
  if (info && src.length > info.max_source_bytes) {
    text($("submit-status"), "The kernel is over " + Math.round(info.max_source_bytes / 1024) + " KiB.");
    return;
  }
  $("submit").disabled = true;
  try {
    const r = await api("POST", "/api/submit", { token, source: src });
    if (r.status === 202) { waiting = r.data.id; text($("submit-status"), "Submitted: waiting for the judge..."); poll(); }
    else { text($("submit-status"), r.data.error || "Not submitted."); $("submit").disabled = false; }
  } catch (e) {
    text($("submit-status"), "No connection: not submitted.");
    $("submit").disabled = false;
  }
}

function fmtMs(x) { return (x < 1 ? x.toPrecision(3) : x.toFixed(3)) + " ms"; }

function timeBar(label, ms, top, yours) {
  const row = document.createElement("div");
  row.className = "timebar" + (yours ? " yours" : "");
  const fill = document.createElement("div");
  fill.className = "fill";
  fill.style.width = Math.max(2, Math.min(100, 100 * ms / top)).toFixed(1) + "%";
  const s = document.createElement("span");
  s.textContent = label + ": " + fmtMs(ms);
  row.append(fill, s);
  return row;
}

function showVerdict(sub, builtins) {
  const key = JSON.stringify([sub, builtins]);
  if (key === shownVerdict) return;
  shownVerdict = key;
  show($("verdict"), true);
  const o = $("outcome");
  if (!sub.outcome) {
    text(o, "#" + sub.id + ": " + sub.stage + (sub.ahead ? " (" + sub.ahead + " ahead)" : ""));
    o.className = "pending";
  } else {
    const sure = sub.final !== false;
    text(o, "#" + sub.id + ": " + sub.outcome + (sure ? "" : " so far: checking for races..."));
    o.className = !sure ? "pending" : sub.correct ? "correct" : "bad";
  }
  text($("message"), sub.message ? sub.message + (sub.message_line ? " (line " + sub.message_line + ")" : "") : "");
  show($("message"), !!sub.message);
  const marks = $("marks");
  marks.replaceChildren();
  (sub.marks || []).forEach((m) => {
    const li = document.createElement("li");
    li.textContent = "line " + m.line + (m.column ? ", column " + m.column : "") + ": " + m.severity + ": " + m.message;
    marks.append(li);
  });
  markLines(sub.marks);
  const times = $("times");
  times.replaceChildren();
  if (sub.time) {
    const p = document.createElement("p");
    p.textContent = "Your kernel: min " + fmtMs(sub.time.min_ms) + ", median " + fmtMs(sub.time.median_ms) +
                    ", max " + fmtMs(sub.time.max_ms) + " over " + sub.time.reps + " runs and " +
                    (sub.time.audited_launches || 0) + " launches on fresh data after the timing, each answer compared, of n = " +
                    sub.time.n + " (" + sub.time.backend + ")";
    times.append(p);
    const top = Math.max(sub.time.median_ms, ...builtins.map((b) => b.ms));
    times.append(timeBar("yours", sub.time.median_ms, top, true));
    builtins.forEach((b) => times.append(timeBar("built-in " + b.variant, b.ms, top, false)));
  }
  const f = $("findings");
  f.replaceChildren();
  (sub.findings || []).forEach((s) => { const li = document.createElement("li"); li.textContent = s; f.append(li); });
  if (sub.explain_note) { const li = document.createElement("li"); li.textContent = sub.explain_note; f.append(li); }
  if (sub.outcome && !sub.explained && sub.outcome !== "compile error" && sub.outcome !== "fault") {
    const li = document.createElement("li"); li.className = "dim"; li.textContent = "explain is looking at your kernel..."; f.append(li);
  }
}

function showBoard(b) {
  const rows = $("rows");
  rows.replaceChildren();
  (b.rows || []).forEach((r) => {
    const li = document.createElement("li");
    if (r.you) li.className = "you";
    const entry = document.createElement("div");
    entry.className = "entry";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = r.name + (r.you ? " (you)" : "");
    const ms = document.createElement("span");
    ms.className = "ms";
    ms.textContent = fmtMs(r.ms);
    entry.append(name, ms);
    li.append(entry);
    if (!r.meets_goal) {
      const note = document.createElement("div");
      note.className = "note dim";
      note.textContent = "correct, not yet within the target";
      li.append(note);
    }
    rows.append(li);
  });
  show($("no-rows"), !(b.rows || []).length);
  const bl = $("builtins");
  bl.replaceChildren();
  (b.builtins || []).forEach((x) => { const li = document.createElement("li"); li.textContent = "built-in " + x.variant + ": " + fmtMs(x.ms); bl.append(li); });
}

let pollTimer = 0;
let lastBoard = { builtins: [] };
async function poll() {
  clearTimeout(pollTimer);
  try {
    const [s, b] = await Promise.all([api("GET", "/api/submissions"), api("GET", "/api/leaderboard")]);
    if (s.status === 403) { token = ""; sessionStorage.removeItem(TOKEN_KEY); show($("work-view"), false); show($("join-view"), true); return; }
    if (b.status === 200) { lastBoard = b.data; showBoard(b.data); }
    if (s.status === 200 && s.data.submissions.length) {
      const latest = s.data.submissions[0];
      showVerdict(latest, lastBoard.builtins || []);
      const pending = !latest.outcome || (!latest.explained && latest.outcome !== "compile error" && latest.outcome !== "fault");
      if (!latest.outcome) { $("submit").disabled = true; } else if (waiting === latest.id || !pending) {
        $("submit").disabled = false;
        text($("submit-status"), latest.outcome ? "Judged in " + latest.seconds_to_verdict.toFixed(1) + " s." : "");
      }
    }
  } catch (e) {
    text($("submit-status"), "Reconnecting...");
  }
  deadline();
  pollTimer = setTimeout(poll, 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  $("join-form").addEventListener("submit", join);
  $("submit").addEventListener("click", submit);
  const fromHash = location.hash.replace(/^#/, "").toUpperCase();
  if (/^[A-Z0-9]{4,6}$/.test(fromHash)) $("code").value = fromHash;
  if (token) start(); else show($("join-view"), true);
});
