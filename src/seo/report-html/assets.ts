/**
 * The HTML report's inline style and its one inline script (page-table sorting). Both live in
 * the file itself: the report opens offline and asks the network for nothing.
 * @module
 */

export const STYLE = `
:root { color-scheme: light dark; --fg: #1d2127; --muted: #5b6470; --bg: #fff; --card: #f5f6f8; --line: #d9dde3;
  --critical: #8b0000; --high: #c0392b; --medium: #d68910; --low: #2e86c1; --info: #7f8c8d; --ok: #1e8449; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #a0a8b3; --bg: #15181c; --card: #1e2228; --line: #343a42; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { margin: 0 0 4px; font-size: 1.6em; } h2 { margin: 32px 0 12px; font-size: 1.25em; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 0; font-size: 1em; }
.muted, figcaption, .provenance { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 8px 0; }
.score-line { display: flex; gap: 24px; align-items: center; flex-wrap: wrap; }
.score { font-size: 3em; font-weight: 700; line-height: 1; }
.score small { font-size: .4em; color: var(--muted); }
.cats { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 6px 16px; flex: 1; }
.cat { display: grid; grid-template-columns: 110px 1fr 32px; gap: 6px; align-items: center; font-size: .9em; }
.meter { height: 8px; background: var(--line); border-radius: 4px; overflow: hidden; }
.meter > span { display: block; height: 100%; background: var(--ok); }
.sev { display: inline-block; min-width: 64px; text-align: center; border-radius: 4px; padding: 0 6px; color: #fff; font-size: .8em; font-weight: 600; text-transform: uppercase; }
.sev-critical { background: var(--critical); } .sev-high { background: var(--high); } .sev-medium { background: var(--medium); } .sev-low { background: var(--low); } .sev-info { background: var(--info); }
ol.fixes { padding-left: 0; list-style: none; } .fix .rank { font-weight: 700; margin-right: 6px; }
details summary { cursor: pointer; color: var(--muted); }
ul.urls { margin: 4px 0; padding-left: 18px; font-size: .9em; word-break: break-all; }
table { border-collapse: collapse; width: 100%; font-size: .88em; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.url { word-break: break-all; max-width: 420px; }
th button { all: unset; cursor: pointer; font-weight: 600; }
th[aria-sort="ascending"] button::after { content: " ▲"; } th[aria-sort="descending"] button::after { content: " ▼"; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.chart { margin: 0; } .chart svg { max-width: 100%; height: auto; font-size: 12px; fill: var(--fg); }
.chart rect { fill: var(--low); } .s2xx rect { fill: var(--ok); } .s3xx rect { fill: var(--medium); } .s4xx rect, .s5xx rect, .s0 rect { fill: var(--high); }
.chart .value { fill: var(--muted); }
.cut { border-left: 4px solid var(--medium); }
.delta-up { color: var(--ok); } .delta-down { color: var(--high); }
a { color: inherit; }
`;

/** Sorts #page-table by the clicked column; numbers as numbers, the rest as text. */
export const SCRIPT = `
(function () {
  var table = document.getElementById("page-table");
  if (!table) return;
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function key(row, index, numeric) {
    var cell = row.cells[index];
    var raw = cell.getAttribute("data-sort");
    var text = raw === null ? cell.textContent : raw;
    return numeric ? Number(text) : text.toLowerCase();
  }
  function sortBy(index) {
    var head = heads[index];
    var numeric = head.classList.contains("num");
    var ascending = head.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a, index, numeric), y = key(b, index, numeric);
      var order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    for (var i = 0; i < heads.length; i++) heads[i].removeAttribute("aria-sort");
    head.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var fragment = document.createDocumentFragment();
    rows.forEach(function (row) { fragment.appendChild(row); });
    body.appendChild(fragment);
  }
  Array.prototype.forEach.call(heads, function (head, index) {
    var button = head.querySelector("button");
    if (button) button.addEventListener("click", function () { sortBy(index); });
  });
})();
`;
