import type { PersonalValue } from '../../apply-engine/config/filter-names.js';
import type { TextScrub } from '../../apply-engine/config/live.js';
import type { FakeKind, Pseudonyms } from './pseudonym.js';

/**
 * People's data wherever it appears in a pulled directory, replaced by the sample's pseudonyms.
 * The sample's CSVs replace names with an HMAC of the name; a real name left anywhere beside them
 * (a filter `Contact person = Alice Andersson`, a goal titled after a customer, an option label)
 * is a dictionary: HMAC it, compare, and every fake is reversed. So each value the sample fakes,
 * and each condition value a filter holds on a person's or an organization's data, is replaced by
 * the same fake in every file: the configuration, reference.yaml and the CSVs' other columns.
 * Values are found as whole words, case-insensitively (the fakes are made from the trimmed,
 * lower-cased value, so "alice andersson" and "Alice Andersson" get the same one).
 */
export class Scrubber implements TextScrub {
  /** Each value by its words, lower-cased and single-spaced (as found in text), with its kind. */
  private readonly known = new Map<string, { kind: FakeKind; value: string }>();
  private pattern: RegExp | null | undefined;

  constructor(private readonly fakes: Pseudonyms) {}

  /** A value of a record of the sample (a person's name, an e-mail), replaced as the sample replaces it. */
  add(kind: FakeKind, value: unknown): void {
    if (typeof value !== 'string') return;
    const v = value.trim();
    // Two letters are a word of many texts; no name is that short that a sample would hide it.
    if (v.length < 3 || this.known.has(keyOf(v))) return;
    this.known.set(keyOf(v), { kind, value: v });
    this.pattern = undefined;
  }

  learn(values: PersonalValue[]): void {
    for (const v of values) this.add(v.kind, v.value);
  }

  text(s: string): string {
    this.pattern ??= this.known.size ? wordsPattern([...this.known.values()].map((k) => k.value)) : null;
    if (!this.pattern) return s;
    return s.replace(this.pattern, (m) => {
      const k = this.known.get(keyOf(m));
      return k ? String(this.fakes.fake(k.kind, k.value)) : m;
    });
  }

  value<T>(v: T): T {
    if (typeof v === 'string') return this.text(v) as T;
    if (Array.isArray(v)) return v.map((x) => this.value(x)) as T;
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.value(x)])) as T;
    return v;
  }
}

const keyOf = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** One pattern for every value, longest first (an e-mail before the name inside it), each a whole word. */
function wordsPattern(values: string[]): RegExp {
  const alternatives = values.sort((a, b) => b.length - a.length).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}
