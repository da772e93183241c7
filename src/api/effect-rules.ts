/**
 * Calls whose arguments decide whether they destroy: the same update renames a user's team or empties
 * it, edits a user or deactivates them. Keyed by operation id; each rule names the argument and what it
 * does, in words an assistant and a person read in a refusal. Checked on the arguments as given
 * (before the entry), so a refusal sends nothing. src/api/effect.ts applies them; every operation's
 * class, these included, is pinned in test/api/effect.test.ts.
 */

export interface EffectRule {
  /** What the argument does, e.g. "active_flag false deactivates the user (they can no longer log in)". */
  why: string;
  when(body: Record<string, unknown>): boolean;
}

/** false, 0 and their text forms: the v1 flags take 0/1, v2 booleans. */
const isOff = (v: unknown) => v === false || v === 0 || v === '0' || v === 'false';
const isOn = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

/** `shown` is the value as the operation takes it: false for v2 booleans, 0 for v1 flags. */
const off = (key: string, does: string, shown = 'false'): EffectRule => ({ why: `${key} ${shown} ${does}`, when: (b) => isOff(b[key]) });
const on = (key: string, does: string, shown = 'true'): EffectRule => ({ why: `${key} ${shown} ${does}`, when: (b) => isOn(b[key]) });
const given = (key: string, does: string): EffectRule => ({ why: `${key} ${does}`, when: (b) => b[key] !== undefined });
/** A list that replaces the members, assignees or links a record has: an empty one removes them all. */
const emptied = (key: string, what: string): EffectRule => ({ why: `${key} [] removes every ${what}`, when: (b) => Array.isArray(b[key]) && b[key].length === 0 });

/**
 * visible_to narrows who sees a record: 1 is the owner (and followers) on every plan, 3 and 5 the
 * owner's visibility group on Premium and Ultimate; only 7 is the whole company everywhere it exists.
 * Without the plan and the record's current value, anything but 7 may hide it from users who see it now.
 */
const hides: EffectRule = {
  why: 'visible_to other than 7 (entire company) can hide the record from users who see it now',
  when: (b) => b.visible_to !== undefined && b.visible_to !== null && Number(b.visible_to) !== 7,
};
const archives = (what: string) => on('is_archived', `archives the ${what} (it leaves the lists and can no longer be edited)`);

/** A v2 field update that hides the field from the details view hides its values from everyone. */
const hidesField: EffectRule = {
  why: 'ui_visibility.details_visible_flag false hides the field and its values from the details view',
  when: (b) => isOff((b.ui_visibility as Record<string, unknown> | undefined)?.details_visible_flag),
};
/** v1 field updates take the full option list: options left out are deleted (the vendor's documents). */
const replacesOptions = given('options', 'replaces the option list: options left out are deleted, and the values that held them');

export const ARGUMENT_RULES: Readonly<Record<string, readonly EffectRule[]>> = {
  'users.update': [off('active_flag', 'deactivates the user (they can no longer log in)')],
  'legacyTeams.update': [
    given('users', 'replaces the member list: users left out leave the team'),
    off('active_flag', 'deactivates the team', '0'),
    on('deleted_flag', 'deletes the team', '1'),
  ],
  'deals.update': [archives('deal'), hides],
  'leads.update': [archives('lead'), hides],
  'persons.update': [hides],
  'organizations.update': [hides],
  'products.update': [hides],
  'activities.update': [emptied('participants', 'participant'), emptied('attendees', 'attendee')],
  'tasks.update': [emptied('assignee_ids', 'assignee')],
  'tasks.updateV1': [emptied('assignee_ids', 'assignee')],
  'projects.update': [emptied('deal_ids', 'linked deal'), emptied('person_ids', 'linked person'), emptied('org_ids', 'linked organization')],
  'projects.updateV1': [emptied('deal_ids', 'linked deal')],
  'dealFields.update': [hidesField],
  'personFields.update': [hidesField],
  'organizationFields.update': [hidesField],
  'productFields.update': [hidesField],
  'projectFields.update': [hidesField],
  'dealFields.updateV1': [replacesOptions],
  'personFields.updateV1': [replacesOptions],
  'organizationFields.updateV1': [replacesOptions],
  'productFields.updateV1': [replacesOptions],
  'mailbox.threadsUpdate': [on('archived_flag', 'archives the thread (it leaves the inbox)', '1'), off('shared_flag', 'hides the thread from the other users', '0')],
  'roles.pipelinesUpdate': [
    {
      why: 'visible_pipeline_ids.remove hides those pipelines (and their deals) from the role\'s users',
      when: (b) => {
        const remove = (b.visible_pipeline_ids as Record<string, unknown> | undefined)?.remove;
        return Array.isArray(remove) && remove.length > 0;
      },
    },
  ],
};
