/**
 * Column widths that make a bordered table (cli-table3: one space of padding each side, one border
 * character between and around columns) no wider than the terminal. Pure; no table code here.
 *
 * Room is taken by priority: opaque ids (UUIDs) give way first, to their first 8 characters; other
 * ids never shrink (they are copied into the next command); other long columns give way next; the
 * primary text (title, name, subject) keeps its width longest and gets whatever is left over, so a
 * wide title uses the free room instead of a fixed share.
 */

/** Columns that name the record: the last to shrink. */
const PRIMARY = new Set(['title', 'name', 'subject']);
/**
 * The order columns give way, as [other columns, primary columns, id headers cut]: the others keep
 * their width while the primary keeps 24; then the others narrow to 16; then a long id header
 * (organization_id over ids of 1-3 digits) is cut to its values' width; then the others narrow to 8,
 * the primary to 8, and everything to one character. Id values are never cut.
 */
const STEPS: ReadonlyArray<readonly [number, number, boolean]> = [
  [Infinity, 24, false],
  [16, 24, false],
  [16, 24, true],
  [8, 24, true],
  [8, 8, true],
  [1, 1, true],
];

/** A UUID cut to its first 8 characters and an ellipsis. */
export const OPAQUE_WIDTH = 9;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value nobody reads, only copies: a UUID (a lead's id, a lead label's id, a conversion job's id). */
export function isOpaqueId(text: string): boolean {
  return UUID.test(text);
}

export function isIdColumn(c: string): boolean {
  return c === 'id' || c.endsWith('.id') || c.endsWith('_id');
}

/** Border and padding a table of n columns adds to its cells: │ x │ y │ is 1 + 3 per column. */
export function tableChrome(n: number): number {
  return 1 + 3 * n;
}

/** Display width of a cell as the table measures it (code points; ANSI is added after fitting). */
export function textWidth(s: string): number {
  let n = 0;
  for (const ch of s) if (!/\p{Mn}/u.test(ch)) n++;
  return n;
}

/**
 * Content widths (without padding) for columns whose widest cell, header included, is `natural[i]`
 * (`values[i]` without the header), fitting `width` terminal columns; width 0 means no limit (a
 * terminal that reports 0 columns has no known width either). `opaque[i]`: the column holds UUIDs. Never
 * below 1; a table with more columns than the width can hold at one character each stays too wide
 * rather than dropping columns.
 */
export function fitWidths(columns: readonly string[], natural: readonly number[], width: number, keep: (column: string, index: number) => boolean = isIdColumn, values: readonly number[] = natural, opaque: readonly boolean[] = []): number[] {
  const widths = natural.map((n) => Math.max(1, n));
  if (!width) return widths;
  const room = width - tableChrome(columns.length);
  const total = (of: readonly number[]) => of.reduce((a, w) => a + w, 0);
  if (total(widths) <= room) return widths;
  if (opaque.some((o, i) => o && widths[i]! > OPAQUE_WIDTH)) {
    // Opaque ids (a lead's UUID) give way before anything else: a UUID cut anywhere can no longer be
    // copied, and its first 8 characters still tell the rows apart, so it goes straight to those
    // (and an ellipsis) and the room it frees goes to the title. Then the others fit as usual.
    const cut = widths.map((w, i) => (opaque[i] ? Math.min(w, OPAQUE_WIDTH) : w));
    return fitWidths(columns, cut, width, (c, i) => opaque[i] === true || keep(c, i), values.map((v, i) => (opaque[i] ? Math.min(v, OPAQUE_WIDTH) : v)));
  }
  const fixed = columns.map(keep);
  const primary = columns.map((c, i) => !fixed[i] && PRIMARY.has(c.split('.').pop()!));
  // Widths allowed at each step, loosest first.
  const at = (k: number) => {
    const [other, main, idHeaders] = STEPS[k]!;
    // A cut id header keeps 3 characters ("or…") when its values are narrower.
    return widths.map((n, i) => (fixed[i] ? (idHeaders ? Math.min(n, Math.max(3, values[i]!)) : n) : Math.min(n, primary[i] ? main : other)));
  };
  const first = at(0);
  if (total(first) <= room) {
    // The other columns are whole; the primary ones share what is left.
    share(widths, first, primary, room - total(first.map((w, i) => (primary[i] ? 0 : w))));
    return widths;
  }
  for (let k = 1; k < STEPS.length; k++) {
    const loose = at(k - 1);
    const tight = at(k);
    if (total(tight) > room && k < STEPS.length - 1) continue;
    // The columns this step narrows share the room between its floor and the previous step's widths.
    const moving = tight.map((w, i) => w !== loose[i]);
    for (let i = 0; i < widths.length; i++) widths[i] = moving[i] ? loose[i]! : tight[i]!;
    share(widths, tight, moving, Math.max(room - total(tight.map((w, i) => (moving[i] ? 0 : w))), total(tight.map((w, i) => (moving[i] ? w : 0)))));
    return widths;
  }
  return widths;
}

/**
 * Water-filling: the selected columns get min(natural, cap) with the largest cap that fits `room`
 * (never below their floor); what the cap leaves unused goes, a character each, to columns still cut (left to right).
 */
function share(widths: number[], floor: readonly number[], sel: readonly boolean[], room: number): void {
  const idx = sel.flatMap((s, i) => (s ? [i] : []));
  const natural = idx.map((i) => widths[i]!);
  const used = (cap: number) => idx.reduce((a, i, k) => a + Math.max(floor[i]!, Math.min(natural[k]!, cap)), 0);
  let lo = 0;
  let hi = Math.max(0, ...natural);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (used(mid) <= room) lo = mid;
    else hi = mid - 1;
  }
  idx.forEach((i, k) => {
    widths[i] = Math.max(floor[i]!, Math.min(natural[k]!, lo));
  });
  let left = room - used(lo);
  for (let k = 0; left > 0 && k < idx.length; k++) {
    const i = idx[k]!;
    if (natural[k]! > widths[i]!) {
      widths[i]!++;
      left--;
    }
  }
}

/** Cuts text to a display width, marking the cut with an ellipsis. */
export function truncateText(s: string, max: number): string {
  if (textWidth(s) <= max) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    const w = /\p{Mn}/u.test(ch) ? 0 : 1;
    if (n + w > max - 1) break;
    out += ch;
    n += w;
  }
  return `${out}…`;
}
