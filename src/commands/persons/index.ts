import { personOps } from '../../api/operations/persons.js';
import { AuthError } from '../../core/errors.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { type Link, linkedNamesView } from '../linked-names.js';
import { dealProductRows } from './products.js';
import { upsertCommand } from '../upsert/command.js';

/** The service answers 403 to anyone but a global admin, whatever the token's scopes; say so. */
const ADMIN_ONLY =
  'The person collection is open to global admins only: a regular user gets 403 even with contacts scopes. ' +
  'Run it as a global admin, or use `crmctl persons list --all` (v2, cursor-paged) instead.';

const PERSON_LINKS: Link[] = [
  { column: 'organization', idField: 'org_id', kind: 'organization' },
  { column: 'owner', idField: 'owner_id', kind: 'user' },
  { column: 'labels', idField: 'label_ids', kind: 'person-label' },
];
/** A person's labels come with it by name when the read asks (include_labels), as labels: [{id, label}]. */
const WITH_LABELS = { include_labels: true };

/** Every person verb is generated; list, get, files and followers take --v1 for the v1 form (cli.switch). */
export const area = defineArea(personOps, {
  commands: [upsertCommand(personOps, 'persons'), bulkUpdateCommand('persons', 'person', personOps)],
  extend: {
    collection: { explain: (err) => (err instanceof AuthError && err.message.includes('(403)') ? new AuthError(err.message, ADMIN_ONLY) : err) },
    products: { present: dealProductRows },
    list: { view: linkedNamesView(PERSON_LINKS, { query: WITH_LABELS }) },
    get: { view: linkedNamesView(PERSON_LINKS, { oneRecord: true, query: WITH_LABELS }) },
  },
  groups: {
    'persons followers': 'Users who follow a person: list (v2 or --v1), add, remove, changelog',
    'persons picture': 'The person picture: get, upload, delete',
  },
});
