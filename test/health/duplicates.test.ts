// The duplicate search on its own: what it groups and why, and that blocking keeps the work near
// linear (the number of name pairs compared is counted, not timed: speed is in npm run bench).
import { describe, expect, it } from 'vitest';
import { organizationCandidate, personCandidate } from '../../src/health/candidates.js';
import { checkPhone, emailProblem, normalOrgName, websiteKey } from '../../src/health/contacts.js';
import { BLOCK_ALL, groupDuplicates, similarity, WINDOW } from '../../src/health/duplicates.js';

const person = (id: number, name: string, email?: string, phone?: string) =>
  personCandidate({ id, name, add_time: '2025-01-01', emails: email ? [{ value: email }] : [], phones: phone ? [{ value: phone }] : [] }, ['email', 'phone', 'name'], 'EE');

describe('duplicate groups', () => {
  it('joins records through any shared key or alike name, transitively, and says why', () => {
    const r = groupDuplicates([
      person(1, 'Alice Andersson', 'alice@example.org'),
      person(2, 'A. Andersson', 'ALICE@example.org '),
      person(3, 'Alice Anderson'),
      person(4, 'Bob Berzins', undefined, '+372 5550 1037'),
      person(5, 'Robert B.', undefined, '5550 1037'),
      person(6, 'Carla Korhonen'),
    ], { byName: true, threshold: 0.88 });
    expect(r.groups).toEqual([
      { ids: [1, 2, 3], reasons: ['same e-mail alice@example.org', 'names 0.93 alike: "Alice Andersson" ~ "Alice Anderson"'] },
      { ids: [4, 5], reasons: ['same phone +37255501037'] },
    ]);
  });

  it('names only when asked, and never below the threshold', () => {
    const cands = [person(1, 'Jon Smith'), person(2, 'John Smith')];
    expect(similarity('jon smith', 'john smith')).toBe(0.9);
    expect(groupDuplicates(cands, { byName: true, threshold: 0.9 }).groups).toHaveLength(1);
    expect(groupDuplicates(cands, { byName: true, threshold: 0.95 }).groups).toHaveLength(0);
    expect(groupDuplicates(cands, { byName: false, threshold: 0.5 }).groups).toHaveLength(0);
  });

  it('organizations: legal forms and accents aside, and the website host', () => {
    expect(normalOrgName('ACME Corp.')).toBe('acme');
    expect(normalOrgName('Acme Corporation')).toBe('acme');
    expect(normalOrgName('Bērziņš & Co OÜ')).toBe('berzins');
    expect(normalOrgName('The Company')).toBe('the company');
    expect(websiteKey('https://www.Acme.example.com/about')).toBe('acme.example.com');
    expect(websiteKey('acme.example.com')).toBe('acme.example.com');
    const r = groupDuplicates([
      organizationCandidate({ id: 1, name: 'Acme Corporation', add_time: '' }, ['name', 'website']),
      organizationCandidate({ id: 2, name: 'ACME Corp.', add_time: '' }, ['name', 'website']),
      organizationCandidate({ id: 3, name: 'Initech', website: 'https://initech.example', add_time: '' }, ['name', 'website']),
      organizationCandidate({ id: 4, name: 'Initrode', website: 'initech.example', add_time: '' }, ['name', 'website']),
    ], { byName: true, threshold: 0.88 });
    expect(r.groups.map((g) => g.ids)).toEqual([[1, 2], [3, 4]]);
  });

  it('50,000 persons: a typo is found, and the pairs compared stay near linear (blocks, sorted neighbourhoods)', () => {
    // Names of random letters (a fixed seed): distinct people, as in a real account.
    let seed = 42;
    const rand = () => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const word = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
    const names = Array.from({ length: 50_000 }, () => `${word(4 + Math.floor(rand() * 5))} ${word(5 + Math.floor(rand() * 6))}`);
    const cands = names.map((n, i) => person(i + 1, n));
    const original = names[12_341]!;
    const typo = `${original.slice(0, -1)}${original.endsWith('x') ? 'y' : 'x'}`; // the last letter mistyped
    cands.push(person(50_001, typo));
    const r = groupDuplicates(cands, { byName: true, threshold: 0.85 });
    expect(r.groups.find((g) => g.ids.includes(50_001))?.ids).toEqual([12_342, 50_001]);
    // All pairs would be 1.25 billion; a block larger than BLOCK_ALL is walked with a window.
    expect(r.comparisons).toBeLessThan(50_001 * 3 * WINDOW);
    expect(BLOCK_ALL).toBeGreaterThan(WINDOW);
  });
});

describe('contact values', () => {
  it('phones: E.164 when valid, why not otherwise', () => {
    expect(checkPhone('+372 5550 1037', undefined)).toEqual({ valid: true, e164: '+37255501037' });
    expect(checkPhone('0037255501037', undefined)).toEqual({ valid: true, e164: '+37255501037' });
    expect(checkPhone('5550 1037', 'EE')).toEqual({ valid: true, e164: '+37255501037' });
    expect(checkPhone('5550 1037', undefined)).toEqual({ valid: false, reason: 'no country code, and no phone_region to read a national number in' });
    expect(checkPhone('12345', 'EE')).toEqual({ valid: false, reason: 'not a valid number in EE' });
    expect(checkPhone('+1 555 0100', undefined).valid).toBe(false);
  });

  it('e-mails: the form of a deliverable address', () => {
    expect(emailProblem('alice@example.org')).toBeUndefined();
    expect(emailProblem(' Alice.Andersson@Example.ORG ')).toBeUndefined();
    expect(emailProblem('dana.doyle@example')).toBe('the domain "example" is not a host name');
    expect(emailProblem('erik ek@example.org')).toBe('contains a space');
    expect(emailProblem('no-at.example.org')).toBe('has no @');
    expect(emailProblem('a@b@example.org')).toBe('has more than one @');
    expect(emailProblem('a..b@example.org')).toBe('a dot at the start or end, or two in a row, before the @');
    expect(emailProblem('a@example.c0m')).toBe('the domain "example.c0m" has no top-level part');
  });
});
