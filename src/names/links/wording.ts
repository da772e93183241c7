import { nearest } from '../../input/unknown-keys.js';
import { KINDS, type LinkEntry, type LinkKind } from './kinds.js';

// How a name that finds nothing, or finds several records, is reported: one wording for every door
// (an import column, `--where`, `--field`, a fixture, restore). The door puts its own label in front
// (`line 3: org_name: `, `--where "Stage = Won": `).

/** Kinds whose records are few (configuration): a name that finds none lists them all. */
const LISTED: ReadonlySet<LinkKind> = new Set(['stage', 'pipeline', 'board', 'phase', 'activity-type', 'deal-label', 'person-label', 'organization-label', 'lead-label', 'project-label']);

/**
 * `no organization "Acme" (did you mean "Acme Inc"?)`; a user's adds how else to give one, and a
 * kind of configuration lists its records by key (`; stages: Sales/Qualified, ...`).
 */
export function noMatchRule(kind: LinkKind, text: string, entries: readonly LinkEntry[]): string {
  const near = nearest(text, [...new Set(entries.flatMap((e) => [e.key, e.shown]))]);
  const hint = kind === 'user' ? '; give a name, an email or an id (crmctl users list)' : LISTED.has(kind) && entries.length ? `; ${KINDS[kind].plural}: ${[...new Set(entries.map((e) => e.key))].join(', ')}` : '';
  return `no ${KINDS[kind].noun} "${text}"${near && near !== text ? ` (did you mean "${near}"?)` : ''}${hint}`;
}

/**
 * `2 organizations are called "Acme" (ids 4, 9): give the id`. Records that live under another
 * (stages in pipelines, phases in boards) are told apart by their key: `write "Sales/Qualified" or
 * "Partnerships/Qualified"`; users by their e-mail.
 */
export function ambiguousRule(kind: LinkKind, text: string, hits: readonly LinkEntry[]): string {
  const spec = KINDS[kind];
  const head = `${hits.length} ${spec.plural} are called "${text}"`;
  const keys = [...new Set(hits.map((h) => h.key))];
  if ((spec.parent || kind === 'user') && keys.length === hits.length) return `${head}: write ${keys.map((k) => `"${k}"`).join(' or ')}`;
  return `${head} (ids ${hits.map((h) => h.id).join(', ')}): give the id`;
}

/** `unknown option "Entreprise" (did you mean "Enterprise"?); allowed: SMB, Mid-market, Enterprise` — the door names the field before it. */
export function optionRule(text: string, labels: readonly string[]): string {
  const near = nearest(text, [...labels]);
  return `unknown option ${JSON.stringify(text)}${near && near !== text ? ` (did you mean "${near}"?)` : ''}; allowed: ${labels.join(', ')}`;
}
