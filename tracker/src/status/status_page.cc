// The status page: one self-contained HTML document (inline CSS, JS and SVG; nothing is loaded
// from anywhere else), drawn from status.json (docs/status.md) and refreshed every 2 s. Built
// for a phone first: one column, tables that scroll sideways, charts that scale to the width.
#include <string>

#include "status/status_http.h"

namespace treering::tracker {
namespace {

constexpr const char* kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>treering job</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0;padding:8px;color:#222;background:#fafafa}
h1{font-size:18px;margin:4px 0}h2{font-size:15px;margin:14px 0 4px}
#summary span{display:inline-block;margin-right:12px}
#hang{color:#a00;font-weight:600;white-space:pre-wrap}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:13px}
td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
td:nth-child(2),td:nth-child(5),td:nth-child(7){text-align:left}
.st-running{color:#060}.st-lost,.st-failed{color:#a00;font-weight:600}.st-recovering{color:#a60}
.st-done{color:#666}.charts{display:flex;flex-wrap:wrap;gap:8px}
.chart{background:#fff;border:1px solid #ddd;flex:1 1 320px;max-width:600px}
.chart div{font-weight:600;padding:2px 6px}svg{width:100%;height:auto;display:block}
.legend span{margin-right:10px;font-size:12px}.k{display:inline-block;width:10px;height:10px}
</style></head><body>
<h1>treering job <span id="state"></span></h1>
<div id="summary"></div><div id="hang"></div>
<h2>Ranks</h2><div class="scroll"><table id="ranks"><thead><tr><th>rank</th><th>host</th>
<th>pid</th><th>state</th><th>phase</th><th>round</th><th>collective</th><th>entered</th>
<th>finished</th><th>MB sent</th><th>comp s</th><th>sync s</th><th>seen</th><th>waits on</th>
</tr></thead>
<tbody></tbody></table></div>
<h2>Metrics</h2><div id="metrics" class="charts"></div>
<h2>Compute / sync per round (last 60)</h2>
<div class="legend"><span><i class="k" style="background:#3b7dd8"></i> compute</span>
<span><i class="k" style="background:#f28e2b"></i> sync</span></div>
<div id="timeline" class="chart"></div>
<script>
"use strict";
const INITIAL = )HTML";

constexpr const char* kTail = R"HTML(;
const NS = "http://www.w3.org/2000/svg";
const COLORS = ["#3b7dd8","#e15759","#59a14f","#f28e2b","#76b7b2","#b07aa1","#9c755f"];
if (location.search.indexOf("token=") >= 0) history.replaceState(null, "", location.pathname);
function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(NS, tag.slice(4))
                                   : document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function fmt(v, d) { return v === null || v === undefined ? "" : Number(v).toFixed(d); }
function drawSummary(s) {
  document.getElementById("state").textContent = "(" + s.state + ")";
  const box = document.getElementById("summary");
  box.replaceChildren();
  const done = s.rounds_done + (s.total_rounds > 0 ? "/" + s.total_rounds : "");
  const items = [["workers", s.world_size], ["rounds done", done],
                 ["elapsed", fmt(s.elapsed_s, 1) + " s"], ["restarts", s.restarts],
                 ["recoveries", s.recoveries]];
  if (s.seconds_per_round !== null) items.push(["per round", fmt(s.seconds_per_round, 3) + " s"]);
  if (s.eta_s !== null && s.state === "running") items.push(["left", fmt(s.eta_s, 0) + " s"]);
  for (const [k, v] of items) box.append(el("span", {}, k + ": " + v));
  document.getElementById("hang").textContent = s.hang || "";
}
// The link the running collective waits on longest: "rank 3, quiet 40 s" (docs/status.md).
function waitsOn(r) {
  let worst = null;
  for (const l of r.links || []) {
    if (l.waiting && (worst === null || l.idle_s > worst.idle_s)) worst = l;
  }
  return worst === null ? "" : "rank " + worst.peer + ", quiet " + fmt(worst.idle_s, 0) + " s";
}
function drawRanks(s) {
  const body = document.querySelector("#ranks tbody");
  body.replaceChildren();
  for (const r of s.ranks) {
    const tr = el("tr", {"data-rank": r.rank, "class": "rank"});
    const cells = [r.rank, r.host, r.pid || "", r.state, r.phase, r.round >= 0 ? r.round : "",
                   r.op, r.entered, r.finished, fmt(r.bytes_sent / 1e6, 1), fmt(r.comp_s, 2),
                   fmt(r.sync_s, 2),
                   r.last_report_s === null ? "never" : fmt(r.last_report_s, 0) + " s ago",
                   waitsOn(r)];
    cells.forEach((c, i) => tr.append(el("td", i == 3 ? {"class": "st-" + r.state} : {}, c)));
    body.append(tr);
  }
}
// One chart per metric, one line per eval set: "eval-rmse" -> set "eval", metric "rmse"
// (split at the first dash, as XGBoost's Python does).
function drawMetrics(s) {
  const groups = {};
  for (const name in s.metrics) {
    const dash = name.indexOf("-");
    const metric = dash > 0 ? name.slice(dash + 1) : name;
    const set = dash > 0 ? name.slice(0, dash) : name;
    (groups[metric] = groups[metric] || []).push([set, name, s.metrics[name]]);
  }
  const box = document.getElementById("metrics");
  box.replaceChildren();
  for (const metric of Object.keys(groups).sort()) {
    const W = 400, H = 200, P = 34;
    let xs = [], ys = [];
    for (const [, , pts] of groups[metric]) for (const [x, y] of pts) {
      if (y !== null) { xs.push(x); ys.push(y); }
    }
    const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
    let y0 = Math.min(...ys), y1 = Math.max(...ys);
    if (y1 - y0 < 1e-12) { y0 -= 0.5; y1 += 0.5; }
    const X = x => P + (x - x0) / (x1 - x0) * (W - P - 8);
    const Y = y => H - 18 - (y - y0) / (y1 - y0) * (H - 28);
    const card = el("div", {"class": "chart"});
    card.append(el("div", {}, metric));
    const svg = el("svg:svg", {"viewBox": "0 0 " + W + " " + H, "class": "curve",
                               "data-metric": metric});
    svg.append(el("svg:line", {x1: P, y1: H - 18, x2: W - 8, y2: H - 18, stroke: "#999"}));
    svg.append(el("svg:text", {x: 2, y: 12, "font-size": 10}, y1.toPrecision(4)));
    svg.append(el("svg:text", {x: 2, y: H - 20, "font-size": 10}, y0.toPrecision(4)));
    svg.append(el("svg:text", {x: W - 40, y: H - 4, "font-size": 10}, "round " + x1));
    const legend = el("div", {"class": "legend"});
    groups[metric].forEach(([set, name, pts], i) => {
      const color = COLORS[i % COLORS.length];
      const good = pts.filter(p => p[1] !== null);
      const line = el("svg:polyline", {fill: "none", stroke: color, "stroke-width": 2,
                                       "data-series": name, "data-points": good.length,
                                       points: good.map(p => X(p[0]) + "," + Y(p[1])).join(" ")});
      svg.append(line);
      if (good.length <= 200) for (const p of good) {
        svg.append(el("svg:circle", {cx: X(p[0]), cy: Y(p[1]), r: 2.5, fill: color,
                                     "class": "pt", "data-series": name}));
      }
      const last = good.length ? good[good.length - 1][1] : null;
      legend.append(el("span", {}, "\u25A0 " + set + (last === null ? "" : " " + last.toPrecision(6))));
      legend.lastChild.style.color = color;
    });
    card.append(svg, legend);
    box.append(card);
  }
  if (!box.childElementCount) box.append(el("div", {}, "no rounds finished yet"));
}
// A row per rank, a stacked bar per round: compute, then sync, to the slowest round's scale.
function drawTimeline(s) {
  const rounds = s.timeline.slice(-60), n = s.world_size;
  const box = document.getElementById("timeline");
  box.replaceChildren();
  if (!rounds.length) return;
  let most = 1e-9;
  for (const t of rounds) for (let r = 0; r < n; r++) {
    most = Math.max(most, (t.comp_s[r] || 0) + (t.sync_s[r] || 0));
  }
  const L = 44, W = 600, row = 22, H = n * row + 16, slot = (W - L) / rounds.length;
  const svg = el("svg:svg", {"viewBox": "0 0 " + W + " " + H, "id": "timeline-svg"});
  for (let r = 0; r < n; r++) {
    svg.append(el("svg:text", {x: 2, y: r * row + 15, "font-size": 11}, "rank " + r));
    rounds.forEach((t, i) => {
      const c = t.comp_s[r], y = t.sync_s[r];
      if (c === null || y === null) return;
      const wc = c / most * (slot - 1), ws = y / most * (slot - 1), x = L + i * slot;
      const tip = "round " + t.round + ": compute " + fmt(c, 3) + " s, sync " + fmt(y, 3) + " s";
      const a = el("svg:rect", {x: x, y: r * row + 3, width: Math.max(wc, 0.5), height: row - 6,
                                fill: "#3b7dd8", "class": "comp"});
      a.append(el("svg:title", {}, tip));
      const b = el("svg:rect", {x: x + wc, y: r * row + 3, width: Math.max(ws, 0.5),
                                height: row - 6, fill: "#f28e2b", "class": "sync"});
      b.append(el("svg:title", {}, tip));
      svg.append(a, b);
    });
  }
  svg.append(el("svg:text", {x: L, y: H - 2, "font-size": 10}, "round " + rounds[0].round));
  svg.append(el("svg:text", {x: W - 60, y: H - 2, "font-size": 10},
                "round " + rounds[rounds.length - 1].round));
  box.append(svg);
}
function draw(s) { drawSummary(s); drawRanks(s); drawMetrics(s); drawTimeline(s); }
draw(INITIAL);
let running = INITIAL.state === "running";
async function poll() {
  try {
    const r = await fetch("status.json", {credentials: "same-origin", cache: "no-store"});
    if (!r.ok) throw new Error("HTTP " + r.status);
    const s = await r.json();
    draw(s);
    running = s.state === "running";
  } catch (e) {
    document.getElementById("hang").textContent = "tracker unreachable (" + e.message +
                                                  "): the job may be over";
    running = false;
  }
  if (running) setTimeout(poll, 2000);
}
if (running) setTimeout(poll, 2000);
</script></body></html>
)HTML";

}  // namespace

std::string StatusPage(const std::string& initial_json) {
  // "</script" or "<!--" in a string would change how the script element ends; '<' only
  // occurs inside JSON strings, where \u003c is the same character.
  std::string json;
  json.reserve(initial_json.size());
  for (const char c : initial_json) {
    if (c == '<') {
      json += "\\u003c";
    } else {
      json += c;
    }
  }
  return kHead + json + kTail;
}

}  // namespace treering::tracker
