import { distance } from 'fastest-levenshtein';

/**
 * Duplicate groups among records: those that share an exact key (an e-mail, a phone number, a
 * website), and those whose normalised names are alike (1 - edit distance / longer length, at least
 * the threshold). Comparing every pair is n²/2 (1.25 billion for 50k persons), so names are compared
 * only within blocks: records that share the first three letters of their first word, of their last
 * word, or the last four letters of the whole name. A typo leaves at least one of those intact unless
 * it hits every one of them. A block larger than BLOCK_ALL is sorted and each name compared with its
 * WINDOW neighbours (sorted neighbourhood), so no block costs more than n × WINDOW comparisons.
 */

export interface Candidate {
  id: number;
  /** The name as shown. */
  name: string;
  /** The normalised name compared (empty: not compared by name). */
  norm: string;
  /** Exact keys, e.g. `e-mail alice@example.org`; records sharing one are duplicates. */
  keys: string[];
}

export interface DuplicateGroup {
  /** Lowest first. */
  ids: number[];
  /** Why they are one group: `same e-mail alice@example.org`, `names 0.93 alike: "Alice Andersson" ~ "Alice Anderson"`. */
  reasons: string[];
}

export interface GroupOptions {
  /** Compare names (fuzzy); off: exact keys only. */
  byName: boolean;
  /** Minimum similarity of two names, 0.5–1. */
  threshold: number;
}

export const BLOCK_ALL = 300;
export const WINDOW = 30;

export interface GroupResult {
  groups: DuplicateGroup[];
  /** Name pairs compared (for the tests and the benchmark: bounded by blocks, not n²). */
  comparisons: number;
}

/** Similarity of two normalised names: 1 for equal, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - distance(a, b) / longer;
}

export function groupDuplicates(cands: readonly Candidate[], opts: GroupOptions): GroupResult {
  const parent = cands.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  // Why two records were joined, by the pair (kept only for pairs that matched, which are few).
  const why = new Map<string, string[]>();
  const note = (a: number, b: number, reason: string) => {
    const k = a < b ? `${a}:${b}` : `${b}:${a}`;
    const list = why.get(k) ?? why.set(k, []).get(k)!;
    if (!list.includes(reason)) list.push(reason);
    union(a, b);
  };

  const firstWithKey = new Map<string, number>();
  cands.forEach((c, i) => {
    for (const k of new Set(c.keys)) {
      const first = firstWithKey.get(k);
      if (first === undefined) firstWithKey.set(k, i);
      else note(first, i, `same ${k}`);
    }
  });

  let comparisons = 0;
  if (opts.byName) {
    const compare = (i: number, j: number) => {
      const a = cands[i]!.norm, b = cands[j]!.norm;
      // Lengths alone rule most pairs out: the distance is at least the difference in length.
      if (Math.abs(a.length - b.length) > (1 - opts.threshold) * Math.max(a.length, b.length) + 1e-9) return;
      comparisons++;
      const s = similarity(a, b);
      if (s >= opts.threshold) note(i, j, s === 1 ? `same name "${cands[i]!.name}" ~ "${cands[j]!.name}"` : `names ${s.toFixed(2)} alike: "${cands[i]!.name}" ~ "${cands[j]!.name}"`);
    };
    for (const members of blocks(cands).values()) {
      if (members.length < 2) continue;
      if (members.length <= BLOCK_ALL) {
        for (let x = 0; x < members.length; x++) for (let y = x + 1; y < members.length; y++) compare(members[x]!, members[y]!);
      } else {
        const sorted = [...members].sort((p, q) => (cands[p]!.norm < cands[q]!.norm ? -1 : cands[p]!.norm > cands[q]!.norm ? 1 : 0));
        for (let x = 0; x < sorted.length; x++) for (let y = x + 1; y < Math.min(sorted.length, x + 1 + WINDOW); y++) compare(sorted[x]!, sorted[y]!);
      }
    }
  }

  const byRoot = new Map<number, number[]>();
  cands.forEach((_, i) => {
    const r = find(i);
    const list = byRoot.get(r);
    if (list) list.push(i);
    else byRoot.set(r, [i]);
  });
  // Reasons by group, in one pass over the matched pairs (a group's pairs all share its root).
  const reasonsOf = new Map<number, Set<string>>();
  for (const [pair, reasons] of why) {
    const root = find(Number(pair.split(':')[0]));
    const set = reasonsOf.get(root) ?? reasonsOf.set(root, new Set()).get(root)!;
    for (const r of reasons) set.add(r);
  }
  const groups: DuplicateGroup[] = [];
  for (const [root, members] of byRoot) {
    if (members.length < 2) continue;
    groups.push({ ids: members.map((i) => cands[i]!.id).sort((a, b) => a - b), reasons: [...(reasonsOf.get(root) ?? [])] });
  }
  groups.sort((a, b) => a.ids[0]! - b.ids[0]!);
  return { groups, comparisons };
}

/** Blocking keys of each record → the records that share it. */
function blocks(cands: readonly Candidate[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const add = (key: string, i: number) => {
    const list = out.get(key);
    if (list) list.push(i);
    else out.set(key, [i]);
  };
  cands.forEach((c, i) => {
    if (!c.norm) return;
    const words = c.norm.split(' ');
    const keys = new Set([`f:${words[0]!.slice(0, 3)}`, `l:${words[words.length - 1]!.slice(0, 3)}`, `e:${c.norm.replace(/ /g, '').slice(-4)}`]);
    for (const k of keys) add(k, i);
  });
  return out;
}
