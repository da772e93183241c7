import { pathParamNames, type Operation } from '../../src/api/operation.js';
import { AREAS } from '../../src/commands/areas.js';
import { operationById } from '../../src/api/operations/index.js';
import type { FieldSpec } from '../../src/input/fields.js';
import { jsonSchemaOf } from '../../src/input/json-schema.js';
import { operationFields } from '../../src/input/operation-input.js';

export interface HostileCase {
  name: string;
  argv: string[];
  /** The flag or argument the message must name. */
  names: string;
  stdin?: string;
  /** Reads the refusal needs (never a write), e.g. the field catalog that tells a custom field name from a typo. */
  reads?: string[];
}

const UUID = '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';

/** A valid value for a path parameter, so that the case fails on the field under test only. */
function validArg(op: Operation, name: string): string {
  const shape = op.params?.shape as Record<string, { def?: { type?: string; format?: string } }> | undefined;
  const t = JSON.stringify((shape?.[name] as unknown as { def?: unknown })?.def ?? {});
  if (/guid|uuid/i.test(t)) return UUID;
  if (/"type":"number"|int|"type":"pipe"/.test(t)) return '7';
  return /id$/i.test(name) ? '7' : 'abc';
}

function wrongValue(f: FieldSpec): string | undefined {
  switch (f.kind) {
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'maybe';
    case 'enum':
      return 'definitely-not-allowed';
    case 'array':
      return f.itemKind === 'integer' || f.itemKind === 'number' ? '1,two,3' : f.choices ? 'nope-not-a-choice' : undefined;
    case 'json':
      return '{not json';
    default:
      return undefined;
  }
}

/**
 * Cases derived from every generated command of every area: a wrong type or value for each typed
 * flag, and a create/update with its required fields missing. Each must exit 2, name the flag and
 * send nothing.
 */
export async function derivedCases(): Promise<HostileCase[]> {
  const cases: HostileCase[] = [];
  for (const entry of AREAS) {
    for (const spec of (await entry.load()).commands) {
      if (!spec.operations?.length) continue;
      // The first operation is the one the command is named for (hand-written verbs list extra reads after it).
      const op = operationById(spec.operations[0]!.id);
      if (!op) throw new Error(`${spec.path.join(' ')}: operation ${spec.operations[0]!.id} is in no table`);
      const { args, fields } = operationFields(op);
      const base = [...spec.path, ...args.map((a) => validArg(op, a))];
      const flagged = new Set((spec.options ?? []).map((o) => o.flags.split(/[ ,]/).find((p) => p.startsWith('--'))));
      for (const f of fields) {
        if (!flagged.has(`--${f.flag}`)) continue;
        const bad = wrongValue(f);
        if (bad !== undefined) cases.push({ name: `${spec.path.join(' ')} --${f.flag} ${bad}`, argv: [...base, `--${f.flag}`, bad, '--yes'], names: `--${f.flag}` });
      }
      const required = fields.filter((f) => f.required && f.location === 'body');
      if (required.length && op.method !== 'GET') {
        cases.push({ name: `${spec.path.join(' ')} without its required fields`, argv: [...base, '--yes'], names: `--${required[0]!.flag}` });
      }
      // Only where the command takes the path parameter as a positional argument (some take a flag).
      const positional = (spec.args ?? []).length === args.length;
      for (const [i, a] of args.entries()) {
        if (!positional) break;
        const t = op.params ? (jsonSchemaOf(op.params).properties?.[a] ?? {}) : {};
        // Ids that cannot be "x": UUIDs and integers.
        if (t.format === 'uuid' || t.type === 'integer') {
          const argv = [...base];
          argv[spec.path.length + i] = 'x';
          cases.push({ name: `${spec.path.join(' ')} <${a}> x`, argv: [...argv, '--yes'], names: `<${a}>` });
        }
      }
    }
  }
  void pathParamNames;
  return cases;
}

/** Limits and rules the interface states, written out by hand. */
export function statedLimitCases(): HostileCase[] {
  const ids101 = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
  const keys16 = Array.from({ length: 16 }, (_, i) => `${'a'.repeat(39)}${i.toString(16)}`).join(',');
  return [
    { name: 'persons list --ids with 101 ids', argv: ['persons', 'list', '--ids', ids101], names: '--ids' },
    { name: 'persons list --custom-fields with 16 keys', argv: ['persons', 'list', '--custom-fields', keys16], names: '--custom-fields' },
    { name: 'installments list --deal-ids with 101 ids', argv: ['installments', 'list', '--deal-ids', ids101], names: '--deal-ids' },
    { name: 'leads search one-letter term', argv: ['leads', 'search', '--term', 'a'], names: '--term' },
    { name: 'persons search one-letter term', argv: ['persons', 'search', '--term', 'a'], names: '--term' },
    { name: 'projects search one-letter term', argv: ['projects', 'search', '--term', 'a'], names: '--term' },
    { name: 'leads list --limit 0', argv: ['leads', 'list', '--limit', '0'], names: '--limit' },
    { name: 'leads list --limit -5', argv: ['leads', 'list', '--limit', '-5'], names: '--limit' },
    { name: 'leads create bad date', argv: ['leads', 'create', '--title', 't', '--person-id', '1', '--expected-close-date', '2026-13-01'], names: '--expected-close-date' },
    { name: 'leads create impossible date', argv: ['leads', 'create', '--title', 't', '--person-id', '1', '--expected-close-date', '2026-02-30'], names: '--expected-close-date' },
    { name: 'lead label bad colour', argv: ['lead-labels', 'create', '--name', 'x', '--color', 'teal'], names: '--color' },
    { name: 'activity type colour with a hash', argv: ['activity-types', 'create', '--name', 'x', '--icon-key', 'call', '--color', '#FFFFFF'], names: '--color' },
    { name: 'activity type colour not hex', argv: ['activity-types', 'create', '--name', 'x', '--icon-key', 'call', '--color', 'GGGGGG'], names: '--color' },
    { name: 'activity type unknown icon', argv: ['activity-types', 'create', '--name', 'x', '--icon-key', 'rocket'], names: '--icon-key' },
    { name: 'leads update --unset an unclearable field', argv: ['leads', 'update', UUID, '--unset', 'title'], names: '--unset' },
    { name: '--fields unknown', argv: ['leads', 'list', '--fields', 'id,nope'], names: '--fields', reads: ['GET /api/v2/dealFields'] },
    { name: '--output unknown', argv: ['leads', 'list', '--output', 'xml'], names: '--output' },
    { name: '--data not JSON', argv: ['leads', 'create', '--data', '{title:'], names: '--data' },
    { name: '--data from a missing file', argv: ['leads', 'create', '--data', '@/nonexistent/file.json'], names: '--data' },
    { name: 'webhook URL not a URL', argv: ['webhooks', 'create', '--subscription-url', 'not a url', '--event-action', 'create', '--event-object', 'lead', '--name', 'x'], names: '--subscription-url' },
    { name: 'visible_to 2', argv: ['leads', 'create', '--title', 't', '--person-id', '1', '--visible-to', '2'], names: '--visible-to' },
    // Added by the reliability pass (docs/reliability.md): more stated limits, dates and colours.
    { name: 'persons get --custom-fields with 16 keys', argv: ['persons', 'get', '1', '--custom-fields', keys16], names: '--custom-fields' },
    { name: 'persons list --ids with a non-integer', argv: ['persons', 'list', '--ids', '1,2,x'], names: '--ids' },
    { name: 'installments list --deal-ids with 101 ids and a limit', argv: ['installments', 'list', '--deal-ids', ids101, '--limit', '10'], names: '--deal-ids' },
    { name: 'persons search one-letter term without exact match', argv: ['persons', 'search', '--term', 'x', '--limit', '5'], names: '--term' },
    { name: 'leads list --limit 1.5', argv: ['leads', 'list', '--limit', '1.5'], names: '--limit' },
    { name: 'persons list --limit abc', argv: ['persons', 'list', '--limit', 'abc'], names: '--limit' },
    { name: 'leads list --updated-since not a date', argv: ['leads', 'list', '--updated-since', 'yesterday'], names: '--updated-since' },
    { name: 'persons list --updated-since month 13', argv: ['persons', 'list', '--updated-since', '2026-13-01T00:00:00Z'], names: '--updated-since' },
    { name: 'notes list --start-date 30 February', argv: ['notes', 'list', '--start-date', '2026-02-30'], names: '--start-date' },
    { name: 'projects create --start-date 30 February', argv: ['projects', 'create', '--title', 'x', '--board-id', '1', '--phase-id', '1', '--start-date', '2026-02-30'], names: '--start-date' },
    { name: 'activity type colour of 7 hex digits', argv: ['activity-types', 'create', '--name', 'x', '--icon-key', 'call', '--color', 'FFFFFFF'], names: '--color' },
    { name: 'lead label update bad colour', argv: ['lead-labels', 'update', UUID, '--color', 'teal'], names: '--color' },
    { name: '--data with a JSON array instead of an object', argv: ['leads', 'create', '--data', '[1,2]'], names: '--data' },
    // Integer path ids typed as pathId (a string → number pipe) are not found by derivedCases' type probe.
    { name: 'roles get <id> x', argv: ['roles', 'get', 'x'], names: '<id>' },
    { name: 'roles delete <id> 0', argv: ['roles', 'delete', '0', '--yes'], names: '<id>' },
    { name: 'projects get <id> x', argv: ['projects', 'get', 'x'], names: '<id>' },
    { name: 'phases get <id> 1.5', argv: ['phases', 'get', '1.5'], names: '<id>' },
    { name: 'installments delete <id> x', argv: ['installments', 'delete', 'x', '1', '--yes'], names: '<id>' },
    { name: 'installments delete <installment_id> 0', argv: ['installments', 'delete', '1', '0', '--yes'], names: '<installment_id>' },
    { name: 'subscriptions get <id> -3', argv: ['subscriptions', 'get', '-3'], names: '<id>' },
    // The whole account, part 1: stated rules of the new areas.
    { name: 'deals list --ids with 101 ids', argv: ['deals', 'list', '--ids', ids101], names: '--ids' },
    { name: 'deals create negative value', argv: ['deals', 'create', '--title', 'x', '--value', '-1'], names: '--value' },
    { name: 'deals create probability 101', argv: ['deals', 'create', '--title', 'x', '--probability', '101'], names: '--probability' },
    { name: 'deals update lost reason on a won deal', argv: ['deals', 'update', '1', '--status', 'won', '--lost-reason', 'x'], names: '--lost-reason' },
    { name: 'deals create blank title', argv: ['deals', 'create', '--title', '   '], names: '--title' },
    { name: 'deals get <id> x', argv: ['deals', 'get', 'x'], names: '<id>' },
    { name: 'deals products add-many not a list', argv: ['deals', 'products', 'add-many', '1', '--body-data', '{"product_id":1}'], names: '--body-data' },
    { name: 'stages create deal probability 101', argv: ['stages', 'create', '--name', 'x', '--pipeline-id', '1', '--deal-probability', '101'], names: '--deal-probability' },
    { name: 'activities create due time without a date', argv: ['activities', 'create', '--subject', 'x', '--due-time', '10:00'], names: '--due-time' },
    { name: 'activities create due time 25:00', argv: ['activities', 'create', '--subject', 'x', '--due-date', '2026-01-01', '--due-time', '25:00'], names: '--due-time' },
    { name: 'organizations search one-letter term', argv: ['organizations', 'search', '--term', 'a'], names: '--term' },
    { name: 'search items one-letter term', argv: ['search', 'items', '--term', 'a'], names: '--term' },
    { name: 'filters create with 17 conditions', argv: ['filters', 'create', '--name', 'x', '--type', 'deals', '--conditions', '{"glue":"and","conditions":[{"glue":"and","conditions":[{"object":"deal","field_id":"12451","operator":"=","value":"0","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"1","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"2","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"3","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"4","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"5","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"6","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"7","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"8","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"9","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"10","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"11","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"12","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"13","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"14","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"15","extra_value":null},{"object":"deal","field_id":"12451","operator":"=","value":"16","extra_value":null}]},{"glue":"or","conditions":[]}]}'], names: '--conditions' },
    { name: 'products create price not a number', argv: ['products', 'create', '--name', 'x', '--prices', '[{"price":"cheap","currency":"EUR"}]'], names: '--prices' },
    { name: 'users get <id> 0', argv: ['users', 'get', '0'], names: '<id>' },
    { name: 'pipelines delete <id> x', argv: ['pipelines', 'delete', 'x', '--yes'], names: '<id>' },
  ];
}
