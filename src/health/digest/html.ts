import { METRIC_COLUMNS, type MetricResult } from '../analytics/run.js';
import { barsWithRunningTotal, donut, horizontalBars } from './charts.js';
import type { DigestData } from './compose.js';
import { FINDINGS_SHOWN, METRIC_TITLES } from './markdown.js';

/**
 * The digest as one HTML file: no script, no external resource (the Content-Security-Policy allows
 * inline styles and nothing else), charts as inline SVG. It fits a phone (the charts scale with their
 * viewBox, wide tables scroll) and prints on A4 (@page, no section split across pages where avoidable).
 * Every text from the account is escaped: a deal called `<script>` is shown, never run.
 */

const esc = (v: unknown): string =>
  (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CSS = `
:root { --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --bar: #2f6fde; --total: #d9480f; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 960px; padding: 16px; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.15rem; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
p.meta { color: var(--muted); margin: 0 0 12px; }
section { break-inside: avoid; page-break-inside: avoid; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.charts > figure { margin: 0; flex: 1 1 320px; min-width: 0; }
figure.small { flex: 0 1 220px; }
figcaption { color: var(--muted); font-size: 0.85rem; }
svg.chart { width: 100%; height: auto; display: block; }
svg.chart .bar { fill: var(--bar); }
svg.chart text { font-size: 12px; fill: var(--ink); }
svg.chart .running-total { fill: none; stroke: var(--total); stroke-width: 2; }
svg.chart .slice-error path { fill: #c92a2a; }
svg.chart .slice-warning path { fill: #f59f00; }
svg.chart .slice-info path { fill: #4dabf7; }
svg.chart .slice .value { fill: #fff; font-weight: 600; }
svg.chart .total { font-size: 22px; font-weight: 600; }
.table { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.sev-error { color: #c92a2a; font-weight: 600; }
.sev-warning { color: #b35c00; }
@media (max-width: 600px) {
  body { padding: 10px; font-size: 14px; }
  h1 { font-size: 1.25rem; }
  th, td { padding: 3px 5px; }
}
@media print {
  @page { size: A4; margin: 14mm; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  h2 { break-after: avoid; page-break-after: avoid; }
  .table { overflow: visible; }
  tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;

function table(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  if (!rows.length) return '<p class="meta">None.</p>';
  const numeric = (c: string) => rows.every((r) => r[c] === null || r[c] === undefined || typeof r[c] === 'number');
  const cls = (c: string) => (numeric(c) ? ' class="num"' : '');
  const head = columns.map((c) => `<th${cls(c)}>${esc(c)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => `<td${c === 'severity' ? ` class="sev-${esc(r[c])}"` : cls(c)}>${esc(typeof r[c] === 'number' ? (r[c] as number).toLocaleString('en-US', { maximumFractionDigits: 2 }) : r[c])}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="table"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function figure(svg: string, caption: string, small = false): string {
  return `<figure${small ? ' class="small"' : ''}>${svg}<figcaption>${esc(caption)}</figcaption></figure>`;
}

/** The charts of a metric (none for the ones that read best as a table). */
function metricCharts(m: MetricResult): string {
  const rows = m.rows;
  switch (m.metric) {
    case 'funnel':
      return figure(horizontalBars('funnel', 'Deals that reached each stage', rows.map((r) => ({ label: String(r.stage), value: Number(r.reached) }))), 'Deals of the period that reached each stage');
    case 'forecast': {
      const currencies = [...new Set(rows.map((r) => String(r.currency)))];
      return currencies
        .map((c) => {
          const mine = rows.filter((r) => r.currency === c);
          return figure(barsWithRunningTotal(`forecast-${c}`, `Weighted forecast in ${c} by month`, mine.map((r) => ({ label: String(r.month), value: Number(r.weighted) })), c), `Weighted value in ${c} by expected close month; the line is the running total`);
        })
        .join('\n');
    }
    case 'aging':
      return figure(horizontalBars('aging', 'Open deals per stage', rows.map((r) => ({ label: String(r.stage), value: Number(r.open) }))), 'Open deals per stage');
    case 'velocity':
      return figure(horizontalBars('velocity', 'Average days per stage', rows.filter((r) => r.avg_days !== null).map((r) => ({ label: String(r.stage), value: Number(r.avg_days) }))), 'Average days a deal spent in each stage');
    default:
      return '';
  }
}

export function digestHtml(d: DigestData): string {
  const a = d.audit;
  const sections = d.metrics.map((m) => {
    const charts = metricCharts(m);
    return `<section id="${m.metric}"><h2>${esc(METRIC_TITLES[m.metric])}</h2>${charts ? `<div class="charts">${charts}</div>` : ''}${table(METRIC_COLUMNS[m.metric], m.rows)}</section>`;
  });
  const shown = a.findings.slice(0, FINDINGS_SHOWN) as unknown as Array<Record<string, unknown>>;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(d.title)}, ${esc(d.from)} to ${esc(d.to)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>${esc(d.title)}</h1><p class="meta">Pipeline ${esc(d.pipeline.name)} (${d.pipeline.id}), ${esc(d.from)} to ${esc(d.to)}. Generated by crmctl at ${esc(d.generated_at)}.</p></header>
<section id="audit"><h2>Audit</h2><p>${esc(a.summary)}.</p>
<div class="charts">${figure(donut('severity', 'Findings by severity', a.by_severity.map((s) => ({ label: s.severity, value: s.count }))), 'Findings by severity', true)}
${a.by_check.length ? figure(horizontalBars('checks', 'Findings per check', a.by_check.map((c) => ({ label: c.check, value: c.count }))), 'Findings per check') : ''}</div>
${table(['severity', 'check', 'kind', 'ids', 'name', 'message'], shown)}
${a.findings.length > FINDINGS_SHOWN ? `<p class="meta">… and ${a.findings.length - FINDINGS_SHOWN} more: <code>crmctl audit</code> lists them all.</p>` : ''}</section>
${sections.join('\n')}
</body>
</html>
`;
}
