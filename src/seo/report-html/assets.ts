/**
 * The HTML report's inline style and its one inline script (page table, URL lists, CSV). Both live in
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
td.url { word-break: break-all; max-width: 380px; } td.ids { font-size: .85em; color: var(--muted); max-width: 220px; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.controls input, .controls select, .controls button, .pager button, button.csv, button.show-all, button.filter { font: inherit; font-size: .85em; padding: 2px 8px; border: 1px solid var(--line); border-radius: 4px; background: var(--card); color: var(--fg); cursor: pointer; }
.controls input { min-width: 240px; cursor: text; } .pager { margin: 8px 0; } button:disabled { opacity: .4; cursor: default; }
.template { border-left: 4px solid var(--low); padding-left: 8px; }
.sev-bar-critical rect { fill: var(--critical); } .sev-bar-high rect { fill: var(--high); } .sev-bar-medium rect { fill: var(--medium); } .sev-bar-low rect { fill: var(--low); }
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

/**
 * The report's one script. It draws the page table from the JSON data (search, filters by
 * problem and status, sorting, 100 rows a page), lists every URL of a finding on request, and
 * exports CSV of any finding and of the filtered page table. Crawled text only ever reaches the
 * page through `textContent`; CSV cells that a spreadsheet would read as a formula get a `'`.
 */
export const SCRIPT = `
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var PAGE = 100;
  var COLUMNS = ["path", "status", "depth", "inlinks", "problems", "words", "in_sitemap", "type", "title"];
  var NUMERIC = [false, true, true, true, false, true, false, false, false];
  var table = document.getElementById("page-table");
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  var search = document.getElementById("page-search");
  var check = document.getElementById("page-check");
  var status = document.getElementById("page-status");
  var state = { rows: data.pages, start: 0, sort: -1, ascending: true };

  function cell(tr, text, numeric) {
    var td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (numeric) td.className = "num";
    tr.appendChild(td);
  }
  function filtered() {
    var q = search.value.trim().toLowerCase();
    var id = check.value;
    var code = status.value;
    var rows = data.pages.filter(function (r) {
      if (code !== "" && String(r[1]) !== code) return false;
      if (id === "*" && r[4] === "") return false;
      if (id !== "" && id !== "*" && (" " + r[4] + " ").indexOf(" " + id + " ") < 0) return false;
      return q === "" || r[0].toLowerCase().indexOf(q) >= 0 || String(r[8]).toLowerCase().indexOf(q) >= 0;
    });
    if (state.sort >= 0) {
      var i = state.sort, numeric = NUMERIC[i], dir = state.ascending ? 1 : -1;
      rows.sort(function (a, b) {
        var x = a[i], y = b[i];
        if (numeric) { x = x === null ? -1 : x; y = y === null ? -1 : y; }
        else { x = String(x).toLowerCase(); y = String(y).toLowerCase(); }
        return (x < y ? -1 : x > y ? 1 : 0) * dir;
      });
    }
    return rows;
  }
  function draw() {
    var rows = state.rows;
    var fragment = document.createDocumentFragment();
    rows.slice(state.start, state.start + PAGE).forEach(function (r) {
      var tr = document.createElement("tr");
      cell(tr, r[0]); cell(tr, r[1], true); cell(tr, r[2] === null ? "–" : r[2], true); cell(tr, r[3], true);
      cell(tr, r[4]); cell(tr, r[5], true); cell(tr, r[6] ? "yes" : ""); cell(tr, r[7]); cell(tr, r[8]);
      tr.cells[0].className = "url"; tr.cells[4].className = "ids";
      fragment.appendChild(tr);
    });
    body.replaceChildren(fragment);
    var end = Math.min(rows.length, state.start + PAGE);
    document.getElementById("page-range").textContent = rows.length === 0 ? "no pages" : (state.start + 1) + "–" + end + " of " + rows.length;
    document.getElementById("page-count").textContent = rows.length + " of " + data.pages.length + " pages";
    document.getElementById("page-prev").disabled = state.start === 0;
    document.getElementById("page-next").disabled = end >= rows.length;
  }
  function refresh() { state.rows = filtered(); state.start = 0; draw(); }
  Array.prototype.forEach.call(heads, function (head, index) {
    head.querySelector("button").addEventListener("click", function () {
      state.ascending = state.sort === index ? !state.ascending : true;
      state.sort = index;
      for (var i = 0; i < heads.length; i++) heads[i].removeAttribute("aria-sort");
      head.setAttribute("aria-sort", state.ascending ? "ascending" : "descending");
      refresh();
    });
  });
  [search, check, status].forEach(function (input) { input.addEventListener("input", refresh); });
  document.getElementById("page-prev").addEventListener("click", function () { state.start = Math.max(0, state.start - PAGE); draw(); });
  document.getElementById("page-next").addEventListener("click", function () { state.start += PAGE; draw(); });

  function csvCell(value) {
    var text = value === null || value === undefined ? "" : String(value);
    if (/^[=+\\-@\\t\\r]/.test(text)) text = "'" + text;
    return '"' + text.replace(/"/g, '""') + '"';
  }
  function download(name, header, rows) {
    var lines = [header].concat(rows).map(function (r) { return r.map(csvCell).join(","); });
    var blob = new Blob([lines.join("\\r\\n") + "\\r\\n"], { type: "text/csv;charset=utf-8" });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  document.getElementById("page-csv").addEventListener("click", function () {
    download("pages.csv", COLUMNS, state.rows.map(function (r) { return [data.origin + r[0]].concat(r.slice(1)); }));
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-check]");
    if (!button) return;
    var id = button.getAttribute("data-check");
    var urls = data.findings[id] || [];
    if (button.classList.contains("csv"))
      download(id + ".csv", ["check_id", "url", "evidence"], urls.map(function (u) { return [id, data.origin + u[0], data.evidence[u[1]]]; }));
    else if (button.classList.contains("filter")) {
      check.value = id; refresh();
      document.getElementById("pages").scrollIntoView();
    } else if (button.classList.contains("show-all")) {
      var list = document.querySelector('ul.urls[data-check="' + CSS.escape(id) + '"]');
      var fragment = document.createDocumentFragment();
      urls.forEach(function (u) {
        var li = document.createElement("li");
        var code = document.createElement("code");
        code.textContent = u[0];
        var note = document.createElement("span");
        note.className = "muted";
        note.textContent = " " + data.evidence[u[1]];
        li.appendChild(code); li.appendChild(note);
        fragment.appendChild(li);
      });
      list.replaceChildren(fragment);
      button.remove();
    }
  });
  refresh();
})();
`;
