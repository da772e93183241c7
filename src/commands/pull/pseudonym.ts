import { createHmac } from 'node:crypto';

/**
 * The key fakes are derived with. A fixed default keeps samples reproducible everywhere (CI pulls the
 * same files each time); anyone who has the key can test a guessed original against a fake, so
 * CRMCTL_SAMPLE_KEY sets a private one.
 */
export const DEFAULT_SAMPLE_KEY = 'crmctl-sample-v1';

/** What a value is: the same text is faked differently as a person's name and as a deal title. */
export type FakeKind = 'organization' | 'person' | 'deal' | 'activity' | 'lead' | 'project' | 'task' | 'text' | 'email' | 'phone';

// lead, project, task and text (a note's or comment's body) are faked by a whole backup (sandbox start --from DIR --anonymize).
const LABEL: Record<Exclude<FakeKind, 'email' | 'phone'>, string> = { organization: 'Organization', person: 'Person', deal: 'Deal', activity: 'Activity', lead: 'Lead', project: 'Project', task: 'Task', text: 'Text' };

/**
 * Deterministic replacements: an HMAC of the value (trimmed, lower-cased, as import matches names)
 * under the key, so the same value gives the same fake in every file and every run, and an
 * organization's fake name is also what its persons' and deals' org_name columns say.
 */
export class Pseudonyms {
  constructor(private readonly key: string = DEFAULT_SAMPLE_KEY) {}

  private digest(kind: FakeKind, value: string): string {
    return createHmac('sha256', this.key).update(`${kind}\u0000${value.trim().toLowerCase()}`).digest('hex');
  }

  /** The fake of a value; empty values stay empty (a missing name is not a name). */
  fake(kind: FakeKind, value: unknown): unknown {
    if (value === null || value === undefined || value === '') return value;
    const h = this.digest(kind, String(value));
    if (kind === 'email') return `p-${h.slice(0, 10)}@example.invalid`;
    // 555-0100..0199 are the numbers reserved for fiction in the North American plan.
    if (kind === 'phone') return `+1 ${200 + (parseInt(h.slice(0, 4), 16) % 800)} 555 01${String(parseInt(h.slice(4, 8), 16) % 100).padStart(2, '0')}`;
    return `${LABEL[kind]} ${h.slice(0, 8)}`;
  }

  /** Emails and phones as records hold them: a list of { value, primary, label } (or plain strings). */
  fakeList(kind: 'email' | 'phone', list: unknown): unknown {
    if (!Array.isArray(list)) return typeof list === 'string' ? this.fake(kind, list) : list;
    return list.map((x) => (x && typeof x === 'object' ? { ...(x as object), value: this.fake(kind, (x as { value?: unknown }).value) } : this.fake(kind, x)));
  }
}
