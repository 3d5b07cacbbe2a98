/**
 * The `slop report` page: one self-contained HTML file (inline CSS, inline
 * SVG, a few lines of inline script, no network) with the totals, a bar of
 * the stable prefix vs the volatile tail with the cache breakpoints, a
 * treemap of tokens by folder and file, and the per-file view modes.
 *
 * @module
 */

import { escapeXml as esc } from "../pipeline/formats.ts";
import type { ContextStats } from "./stats.ts";
import { layoutTreemap, pathTree } from "./_treemap.ts";

/** Options of {@linkcode renderReport}. */
export interface ReportOptions {
  /** Page title. @default {"slop report"} */
  title?: string;
  /** Treemap size in CSS pixels. @default {{ width: 960, height: 480 }} */
  size?: { width: number; height: number };
}

const VIEW_COLORS: Record<string, string> = {
  full: "#4e79a7",
  summary: "#f28e2b",
  skeleton: "#59a14f",
  outline: "#76b7b2",
  masked: "#edc948",
  custom: "#b07aa1",
  none: "#bab0ac",
  llm_summary: "#ff9da7",
};

/**
 * The colour of a view mode (fixed for built-ins, derived from the name otherwise).
 */
function viewColor(view: string): string {
  if (VIEW_COLORS[view]) return VIEW_COLORS[view];
  let h = 0;
  for (const c of view) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h} 45% 55%)`;
}

/**
 * Render the report page. The same stats give the same bytes.
 *
 * @param stats What {@linkcode computeStats} returned.
 * @param options Title and treemap size.
 * @returns The HTML page.
 *
 * @example
 * ```ts
 * import { renderReport } from "./html.ts";
 * // await Deno.writeTextFile("report.html", renderReport(stats));
 * ```
 */
export function renderReport(stats: ContextStats, options: ReportOptions = {}): string {
  const title = options.title ?? "slop report";
  const rendered = stats.files.filter((f) => f.status === "rendered").length;
  const share = Math.round(stats.prefix.share * 1000) / 10;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${esc(title)}</h1>
<p class="muted">${esc(stats.output ?? "unwritten build")}</p>
<section class="totals">
<div>${num("total-tokens", stats.total.o200k)}<span>o200k tokens</span></div>
<div>${num("total-cl100k", stats.total.cl100k)}<span>cl100k tokens</span></div>
<div>${num("total-bytes", stats.bytes)}<span>bytes</span></div>
<div>${num("total-files", rendered)}<span>files rendered</span></div>
<div><b id="prefix-share">${share}%</b><span>stable prefix</span></div>
</section>
<h2>Stable prefix and volatile tail</h2>
${prefixBar(stats)}
<h2>Tokens by folder and file</h2>
${treemap(stats, options.size ?? { width: 960, height: 480 })}
${legend(stats)}
<h2>Sections</h2>
${sectionsTable(stats)}
<h2>Files and their view modes</h2>
${filesTable(stats)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Group digits by thousands with commas (fixed, not locale-dependent).
 *
 * @example
 * ```ts
 * import { groupDigits } from "./html.ts";
 * groupDigits(1234567); // "1,234,567"
 * ```
 */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function num(id: string, n: number): string {
  return `<b id="${id}" data-value="${n}">${groupDigits(n)}</b>`;
}

function side(offset: number, total: number): string {
  return offset / total > 0.8 ? " end" : "";
}

function prefixBar(stats: ContextStats): string {
  const total = stats.bytes || 1;
  const pct = (n: number) => `${Math.round((n / total) * 10000) / 100}%`;
  const marks = stats.breakpoints
    .filter((b) => b > 0 && b <= stats.bytes)
    .map((b, i) =>
      `<div class="mark bp${side(b, total)}" style="left:${pct(b)}" title="cache breakpoint ${
        i + 1
      } at byte ${groupDigits(b)}"><span>bp ${i + 1}</span></div>`
    ).join("");
  return `<div class="bar" id="prefix-bar">
<div class="stable" style="width:${pct(stats.prefix.bytes)}" title="stable prefix: ${
    groupDigits(stats.prefix.bytes)
  } bytes, ${groupDigits(stats.prefix.tokens.o200k)} o200k tokens"></div>
<div class="volatile" style="width:${
    pct(stats.bytes - stats.prefix.bytes)
  }" title="volatile tail: ${groupDigits(stats.bytes - stats.prefix.bytes)} bytes"></div>
<div class="mark prefix${side(stats.prefix.bytes, total)}" style="left:${
    pct(stats.prefix.bytes)
  }" title="end of the stable prefix at byte ${
    groupDigits(stats.prefix.bytes)
  }"><span>prefix end</span></div>
${marks}</div>
<p class="muted">Stable prefix ${groupDigits(stats.prefix.bytes)} bytes (${
    groupDigits(stats.prefix.tokens.o200k)
  } o200k tokens); volatile tail ${groupDigits(stats.bytes - stats.prefix.bytes)} bytes (${
    groupDigits(stats.total.o200k - stats.prefix.tokens.o200k)
  } o200k tokens). ${
    stats.breakpoints.length
      ? `${stats.breakpoints.length} cache breakpoint(s).`
      : "No cache breakpoints recorded: the prefix end is shown."
  }</p>`;
}

function treemap(stats: ContextStats, size: { width: number; height: number }): string {
  const tree = pathTree(
    stats.files.map((f) => ({ path: f.path, value: f.tokens.o200k, data: { view: f.view } })),
  );
  const placed = layoutTreemap(tree, { x: 0, y: 0, w: size.width, h: size.height });
  const r = (n: number) => Math.round(n * 10) / 10;
  const cells = placed.map(({ x, y, w, h, node, depth }) => {
    const folder = Boolean(node.children);
    const label = w > 40 && h > 12
      ? `<text x="${r(x + 3)}" y="${r(y + 11)}">${
        esc(clip(folder ? `${node.name}/` : node.name, w))
      }</text>`
      : "";
    const fill = folder ? `rgba(0,0,0,${0.04 + 0.03 * depth})` : viewColor(node.data?.view ?? "");
    return `<g class="${folder ? "dir" : "file"}" data-path="${esc(node.path)}"><title>${
      esc(node.path)
    }${folder ? "/" : ` (${node.data?.view})`}: ${
      groupDigits(node.value)
    } o200k tokens</title><rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${
      r(h)
    }" fill="${fill}"/>${label}</g>`;
  }).join("\n");
  return `<svg id="treemap" viewBox="0 0 ${size.width} ${size.height}" width="100%" role="img" aria-label="o200k tokens by folder and file">
${cells}
</svg>`;
}

function clip(text: string, width: number): string {
  const max = Math.floor((width - 6) / 6.5);
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

function legend(stats: ContextStats): string {
  const views = [...new Set(stats.files.map((f) => f.view))].sort();
  return `<p class="legend">${
    views.map((v) => `<span><i style="background:${viewColor(v)}"></i>${esc(v)}</span>`).join(" ")
  }</p>`;
}

function sectionsTable(stats: ContextStats): string {
  const rows = stats.sections.map((s) =>
    `<tr><td>${
      esc(s.section)
    }</td><td>${s.stability}</td><td>${s.blocks}</td><td>${s.bytes}</td><td>${s.tokens.o200k}</td><td>${s.tokens.cl100k}</td></tr>`
  ).join("\n");
  return `<table id="sections"><thead><tr><th>section</th><th>stability</th><th>blocks</th><th>bytes</th><th>o200k</th><th>cl100k</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function filesTable(stats: ContextStats): string {
  const rows = stats.files.map((f) =>
    `<tr data-path="${esc(f.path)}"><td>${esc(f.path)}</td><td><i style="background:${
      viewColor(f.view)
    }"></i>${
      esc(f.view)
    }</td><td>${f.status}</td><td>${f.sourceBytes}</td><td>${f.tokens.o200k}</td><td>${f.tokens.cl100k}</td><td>${
      f.bytes ? (f.inPrefix ? "prefix" : "tail") : ""
    }</td></tr>`
  ).join("\n");
  return `<table id="files"><thead><tr><th>path</th><th>view</th><th>status</th><th>source bytes</th><th>o200k</th><th>cl100k</th><th>place</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

const CSS = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1000px}
h1{margin:0 0 4px}h2{margin:28px 0 8px;font-size:16px}
.muted{color:#666}
.totals{display:flex;gap:12px;flex-wrap:wrap}
.totals div{background:#f3f4f6;border-radius:6px;padding:8px 14px;min-width:110px}
.totals b{display:block;font-size:22px}.totals span{color:#555;font-size:12px}
.bar{position:relative;display:flex;height:28px;border-radius:4px;overflow:visible;background:#eee;margin-top:22px}
.bar .stable{background:#59a14f}.bar .volatile{background:#e15759}
.mark{position:absolute;top:-6px;bottom:-6px;border-left:2px solid #222}
.mark span{position:absolute;top:-16px;left:2px;font-size:11px;white-space:nowrap}
.mark.bp{border-left:2px dashed #1f4e99}.mark.bp span{top:auto;bottom:-16px;color:#1f4e99}
.mark.end span{left:auto;right:4px}
svg text{font-size:11px;fill:#111;pointer-events:none}
svg rect{stroke:#fff;stroke-width:1}
svg g.file:hover rect,svg g.hl rect{stroke:#000;stroke-width:2}
.legend span{margin-right:12px}
i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid #e5e5e5;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left;word-break:break-all}
tr.hl{background:#fff6d5}
`;

// Hovering a file row highlights its treemap cell, and the other way round.
const SCRIPT = `
(function () {
  var cells = {};
  document.querySelectorAll("#treemap g.file").forEach(function (g) { cells[g.dataset.path] = g; });
  document.querySelectorAll("#files tbody tr").forEach(function (row) {
    var cell = cells[row.dataset.path];
    if (!cell) return;
    function on() { row.classList.add("hl"); cell.classList.add("hl"); }
    function off() { row.classList.remove("hl"); cell.classList.remove("hl"); }
    row.addEventListener("mouseenter", on); row.addEventListener("mouseleave", off);
    cell.addEventListener("mouseenter", on); cell.addEventListener("mouseleave", off);
  });
  document.body.dataset.ready = "true";
})();
`;
