import { scaleBand, scaleLinear } from 'd3-scale';
import { arc, line, pie } from 'd3-shape';

/**
 * Charts as inline SVG text: the scales of d3-scale place the bars, d3-shape draws the line and the
 * donut, and nothing needs a DOM, a script or the network. Every mark carries its label and value as
 * data attributes and a <title>, and every bar its number as text, so the numbers can be read back
 * (the digest's browser test compares them with the analytics) and by a screen reader.
 */

export interface Bar {
  label: string;
  value: number;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (n: number): string => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 }));
const fixed = (n: number): string => String(Math.round(n * 10) / 10);

/** Horizontal bars, one per label (funnel stages, findings per check): fits any width through its viewBox. */
export function horizontalBars(id: string, title: string, bars: readonly Bar[]): string {
  const rowH = 28;
  const labelW = 170;
  const width = 600;
  const height = Math.max(rowH, bars.length * rowH) + 10;
  const y = scaleBand<string>().domain(bars.map((_, i) => String(i))).range([5, height - 5]).padding(0.2);
  const x = scaleLinear().domain([0, Math.max(1, ...bars.map((b) => b.value))]).range([0, width - labelW - 70]);
  const marks = bars.map((b, i) => {
    const top = y(String(i))!;
    const w = x(Math.max(0, b.value));
    return [
      `<g class="mark" data-label="${esc(b.label)}" data-value="${b.value}"><title>${esc(b.label)}: ${num(b.value)}</title>`,
      `<text class="label" x="${labelW - 8}" y="${fixed(top + y.bandwidth() / 2)}" text-anchor="end" dominant-baseline="middle">${esc(b.label)}</text>`,
      `<rect class="bar" x="${labelW}" y="${fixed(top)}" width="${fixed(w)}" height="${fixed(y.bandwidth())}"></rect>`,
      `<text class="value" x="${fixed(labelW + w + 6)}" y="${fixed(top + y.bandwidth() / 2)}" dominant-baseline="middle">${num(b.value)}</text></g>`,
    ].join('');
  });
  return svg(id, title, width, height, marks.join('\n'));
}

/**
 * Vertical bars per label with a line of their running total (a forecast by month): the bars from
 * scaleBand/scaleLinear, the line from d3-shape's line() on the same scales.
 */
export function barsWithRunningTotal(id: string, title: string, bars: readonly Bar[], unit: string): string {
  const width = 600;
  const height = 260;
  const m = { top: 20, right: 20, bottom: 40, left: 20 };
  let run = 0;
  const totals = bars.map((b) => (run += b.value));
  const x = scaleBand<string>().domain(bars.map((b) => b.label)).range([m.left, width - m.right]).padding(0.25);
  const y = scaleLinear().domain([0, Math.max(1, ...totals)]).range([height - m.bottom, m.top]);
  const marks = bars.map((b) => {
    const left = x(b.label)!;
    const top = y(Math.max(0, b.value));
    return [
      `<g class="mark" data-label="${esc(b.label)}" data-value="${b.value}"><title>${esc(b.label)}: ${num(b.value)} ${esc(unit)}</title>`,
      `<rect class="bar" x="${fixed(left)}" y="${fixed(top)}" width="${fixed(x.bandwidth())}" height="${fixed(height - m.bottom - top)}"></rect>`,
      `<text class="value" x="${fixed(left + x.bandwidth() / 2)}" y="${fixed(top - 4)}" text-anchor="middle">${num(b.value)}</text>`,
      `<text class="label" x="${fixed(left + x.bandwidth() / 2)}" y="${height - m.bottom + 16}" text-anchor="middle">${esc(b.label)}</text></g>`,
    ].join('');
  });
  const path = line<number>()
    .x((_, i) => x(bars[i]!.label)! + x.bandwidth() / 2)
    .y((t) => y(t))(totals);
  const total = path ? `<path class="running-total" d="${path}" data-values="${totals.join(',')}"><title>running total: ${num(totals.at(-1) ?? 0)} ${esc(unit)}</title></path>` : '';
  return svg(id, title, width, height, `${marks.join('\n')}\n${total}`);
}

/** A donut of shares (findings by severity), drawn with d3-shape's pie() and arc(). */
export function donut(id: string, title: string, parts: readonly Bar[]): string {
  const size = 220;
  const r = size / 2 - 10;
  const slices = pie<Bar>().value((p) => p.value).sort(null)(parts.filter((p) => p.value > 0));
  const draw = arc<(typeof slices)[number]>().innerRadius(r * 0.55).outerRadius(r);
  const marks = slices.map((s) => {
    const [cx, cy] = draw.centroid(s);
    return [
      `<g class="mark slice slice-${esc(s.data.label)}" data-label="${esc(s.data.label)}" data-value="${s.data.value}"><title>${esc(s.data.label)}: ${num(s.data.value)}</title>`,
      `<path d="${draw(s) ?? ''}"></path>`,
      `<text class="value" x="${fixed(cx)}" y="${fixed(cy)}" text-anchor="middle" dominant-baseline="middle">${num(s.data.value)}</text></g>`,
    ].join('');
  });
  const total = parts.reduce((n, p) => n + p.value, 0);
  return svg(id, title, size, size, `<g transform="translate(${size / 2},${size / 2})">${marks.join('\n')}<text class="total" text-anchor="middle" dominant-baseline="middle">${num(total)}</text></g>`);
}

function svg(id: string, title: string, width: number, height: number, body: string): string {
  return `<svg class="chart" data-chart="${esc(id)}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${esc(id)}-title" preserveAspectRatio="xMinYMin meet"><title id="${esc(id)}-title">${esc(title)}</title>\n${body}\n</svg>`;
}
