import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { clientFor } from './helpers.js';

let fx: SandboxFixture;
const { run, json, refused } = clientFor(() => fx);
interface Field {
  id: number;
  field_code: string;
  field_name: string;
  field_type: string;
  is_custom_field: boolean;
  options: Array<{ id: number; label: string }> | null;
  ui_visibility: { add_visible_flag: boolean; show_in_add_deal_dialog: { show: boolean; order: number | null } };
  important_fields: { enabled: boolean; stage_ids: number[] };
  required_fields: { enabled: boolean };
}
const ALL_INCLUDES = 'ui_visibility,important_fields,required_fields';
const stored = async (code: string) => (await fx.collection<Field>('organizationFields')).find((f) => f.field_code === code);
const custom = async (name: string) => (await fx.collection<Field>('organizationFields')).find((f) => f.field_name === name)!;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('org-fields list and get', () => {
  it('lists every field; the optional members appear only when asked through --include-fields', async () => {
    const all = await fx.collection<Field>('organizationFields');
    const plain = await json(['org-fields', 'list']);
    expect(plain.map((f: Field) => f.field_code)).toEqual(all.map((f) => f.field_code));
    for (const f of plain) for (const m of ['ui_visibility', 'important_fields', 'required_fields']) expect(f).not.toHaveProperty(m);
    await fx.clearRequests();
    const full = await json(['org-fields', 'list', '--include-fields', ALL_INCLUDES]);
    expect(full[0]).toMatchObject({ field_code: 'name', required_fields: { enabled: true }, ui_visibility: { add_visible_flag: true }, important_fields: { enabled: false, stage_ids: [] } });
    expect((await fx.requests())[0]).toMatchObject({ method: 'GET', path: '/api/v2/organizationFields', query: { include_fields: ALL_INCLUDES, limit: '100' }, cost: 10 });
    const only = await json(['org-fields', 'list', '--include-fields', 'required_fields']);
    expect(Object.keys(only[0])).toContain('required_fields');
    expect(Object.keys(only[0])).not.toContain('ui_visibility');
  });

  it('TSV columns: id (the v1 id a filter condition takes), field_code, field_name, field_type, is_custom_field', async () => {
    const all = await fx.collection<Field>('organizationFields');
    const r = await run(['org-fields', 'list', '--output', 'tsv']);
    expect(r.stdout).toBe(all.map((f) => `${f.id}\t${f.field_code}\t${f.field_name}\t${f.field_type}\t${f.is_custom_field}\n`).join(''));
  });

  it('--json keeps the v2 records and reads nothing more; --fields may name id in TSV', async () => {
    await fx.clearRequests();
    const plain = await json(['org-fields', 'list', '--limit', '2']);
    expect(plain[0]).not.toHaveProperty('id');
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v2/organizationFields']);
    const all = await fx.collection<Field>('organizationFields');
    const r = await run(['org-fields', 'list', '--limit', '2', '--fields', 'id,field_name', '--output', 'tsv']);
    expect(r.stdout).toBe(all.slice(0, 2).map((f) => `${f.id}\t${f.field_name}\n`).join(''));
  });

  it('get by field code (exit 5 for an unknown one)', async () => {
    const industry = await custom('Industry');
    const f = await json(['org-fields', 'get', industry.field_code, '--include-fields', 'important_fields']);
    expect(f).toMatchObject({ field_name: 'Industry', field_type: 'enum', options: industry.options!.map((o) => expect.objectContaining(o)), important_fields: { enabled: false, stage_ids: [] } });
    const r = await run(['org-fields', 'get', 'nope']);
    expect(r.code).toBe(5);
  });
});

describe('org-fields create', () => {
  it('creates an enum field from --option flags with the interface defaults; field code is 40 hex', async () => {
    const f = await json(['org-fields', 'create', '--field-name', 'Tier', '--field-type', 'enum', '--option', 'Gold', '--option', 'Silver, plated']);
    expect(f.field_code).toMatch(/^[0-9a-f]{40}$/);
    expect(f).toMatchObject({
      field_name: 'Tier', field_type: 'enum', is_custom_field: true, options: [{ label: 'Gold' }, { label: 'Silver, plated' }],
      ui_visibility: { add_visible_flag: false, details_visible_flag: true, show_in_add_deal_dialog: { show: false, order: null }, show_in_add_person_dialog: { show: false, order: null } },
      important_fields: { enabled: false, stage_ids: [] },
      required_fields: { enabled: false },
    });
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post).toMatchObject({ path: '/api/v2/organizationFields', status: 200, cost: 5 });
    expect(post.body).toEqual({ field_name: 'Tier', field_type: 'enum', options: [{ label: 'Gold' }, { label: 'Silver, plated' }] });
    expect(await stored(f.field_code)).toMatchObject({ field_code: f.field_code, field_name: 'Tier' });
  });

  it('nested flags build ui_visibility, important_fields and required_fields; the dialog order is assigned', async () => {
    const before = await json(['org-fields', 'list', '--include-fields', 'ui_visibility']);
    const maxOrder = Math.max(...before.map((f: Field) => f.ui_visibility.show_in_add_deal_dialog.order ?? 0));
    await fx.clearRequests();
    const f = await json(['org-fields', 'create', '--field-name', 'Credit limit', '--field-type', 'monetary', '--add-visible', 'true', '--show-in-add-deal', 'true', '--important', 'true', '--important-stage-ids', '3,4', '--required', 'true']);
    const reqs = await fx.requests();
    // The stage ids were checked with a read of the stages before the write.
    expect(reqs.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/stages', 'POST /api/v2/organizationFields']);
    expect(reqs[1]!.body).toEqual({
      field_name: 'Credit limit', field_type: 'monetary',
      ui_visibility: { add_visible_flag: true, show_in_add_deal_dialog: { show: true } },
      important_fields: { enabled: true, stage_ids: [3, 4] },
      required_fields: { enabled: true },
    });
    expect(f.ui_visibility.show_in_add_deal_dialog).toEqual({ show: true, order: maxOrder + 1 });
    expect(f.important_fields).toEqual({ enabled: true, stage_ids: [3, 4] });
    expect(f.subfields.map((s: { field_code: string }) => s.field_code)).toEqual(['value', 'currency']);
  });

  it.each([
    [['--field-name', 'X'], '--field-type: is required'],
    [['--field-type', 'varchar'], '--field-name: is required'],
    [['--field-name', 'X', '--field-type', 'enum'], '--options: is required for field type enum: give --option LABEL'],
    [['--field-name', 'X', '--field-type', 'set', '--options', '[]'], '--options: must have at least 1 item'],
    [['--field-name', 'X', '--field-type', 'varchar', '--option', 'A'], '--option: only enum and set fields have options (field type is varchar)'],
    [['--field-name', 'X', '--field-type', 'varchar', '--important-stage-ids', '1'], '--important-stage-ids: must be empty unless the field is important'],
    [['--field-name', 'X'.repeat(256), '--field-type', 'varchar'], '--field-name: must have at most 255 characters'],
    [['--field-name', 'X', '--field-type', 'varchar', '--important-stage-ids', '1,x', '--important', 'true'], '--important-stage-ids: must be a comma-separated list of integers'],
    [['--data', '{"field_name":"X","field_type":"varchar","field_code":"abc"}'], 'body: field_code is generated by the service and cannot be set'],
    [['--field-name', 'X', '--field-type', 'enum', '--option', 'A', '--options', '[{"label":"B"}]'], 'not both'],
  ])('refuses %j before sending: %s', async (args, message) => {
    await refused(['org-fields', 'create', ...args], message);
  });

  it('refuses stage ids that are not active deal stages; only the stage read is sent', async () => {
    const r = await run(['org-fields', 'create', '--field-name', 'X', '--field-type', 'varchar', '--important', 'true', '--important-stage-ids', '2,99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--important-stage-ids: not an active deal stage: 99 (see crmctl stages list)');
    expect((await fx.requests()).map((q) => q.method)).toEqual(['GET']);
    expect((await fx.collection<Field>('organizationFields')).some((f) => f.field_name === 'X')).toBe(false);
  });

  it('without deal scopes the stage check is left to the service, which refuses the same way', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['contact-fields:full'] }).access_token;
    const r = await run(['org-fields', 'create', '--field-name', 'X', '--field-type', 'varchar', '--important', 'true', '--important-stage-ids', '99'], { env: { CRMCTL_ACCESS_TOKEN: token } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('important_fields.stage_ids: must be active deal stages; not active: 99');
    // The stages (403), users/me (403 too: the write goes out unrecorded), the write.
    expect((await fx.requests()).map((q) => `${q.method} ${q.status}`)).toEqual(['GET 403', 'GET 403', 'POST 400']);
  });
});

describe('org-fields update', () => {
  it('PATCH sends only the given members; turning a dialog off clears its order', async () => {
    const revenue = await custom('Annual revenue');
    const f = await json(['org-fields', 'update', revenue.field_code, '--field-name', 'Yearly revenue', '--show-in-add-deal', 'false']);
    const patch = (await fx.requests()).find((q) => q.method === 'PATCH')!;
    expect(patch).toMatchObject({ path: `/api/v2/organizationFields/${revenue.field_code}`, cost: 5 });
    expect(patch.body).toEqual({ field_name: 'Yearly revenue', ui_visibility: { show_in_add_deal_dialog: { show: false } } });
    expect(f).toMatchObject({ field_code: revenue.field_code, field_type: 'monetary', field_name: 'Yearly revenue', ui_visibility: { show_in_add_deal_dialog: { show: false, order: null } } });
    expect((await stored(revenue.field_code))!.field_name).toBe('Yearly revenue');
  });

  it('stage ids on a field that is not important: the stored setting is read, then refused', async () => {
    const vat = await custom('VAT number');
    const r = await run(['org-fields', 'update', vat.field_code, '--important-stage-ids', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--important-stage-ids: must be empty unless the field is important (--important true)');
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v2/organizationFields/${vat.field_code}`]);
    // On a field that is already important, only the stages are checked.
    const employees = await custom('Employees');
    await fx.clearRequests();
    const ok = await json(['org-fields', 'update', employees.field_code, '--important-stage-ids', '6,7']);
    expect(ok.important_fields).toEqual({ enabled: true, stage_ids: [6, 7] });
    // Turning importance off empties the stage list.
    const off = await json(['org-fields', 'update', employees.field_code, '--important', 'false']);
    expect(off.important_fields).toEqual({ enabled: false, stage_ids: [] });
  });

  it.each([
    [['name', '--add-visible', 'false'], '--add-visible: cannot be false for the system field name'],
    [['name'], 'nothing to update: give at least one of --field-name'],
    [['name', '--data', '{}'], 'body: at least one of field_name, ui_visibility, important_fields, required_fields is needed'],
    [['name', '--data', '{"field_type":"text"}'], 'body: field_type cannot change (immutable)'],
    [['name', '--data', '{"field_code":"org_name","field_name":"N"}'], 'body: field_code cannot change (immutable)'],
    [['name', '--important', 'false', '--important-stage-ids', '1'], '--important-stage-ids: must be empty unless the field is important'],
  ])('refuses %j before sending: %s', async (args, message) => {
    await refused(['org-fields', 'update', ...args], message);
  });
});

describe('org-fields delete, delete-many, stages', () => {
  it('delete by code needs --yes, prints the deleted field and drops it from the list', async () => {
    const contract = await custom('Contract period');
    const no = await run(['org-fields', 'delete', contract.field_code]);
    expect(no.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
    const gone = await json(['org-fields', 'delete', contract.field_code, '--yes']);
    expect(gone).toMatchObject({ field_code: contract.field_code, field_name: 'Contract period' });
    expect((await fx.requests()).at(-1)).toMatchObject({ method: 'DELETE', path: `/api/v2/organizationFields/${contract.field_code}`, cost: 3 });
    expect(await stored(contract.field_code)).toBeUndefined();
    expect((await run(['org-fields', 'get', contract.field_code])).code).toBe(5);
  });

  it('a system field cannot be deleted (the service says so, exit 2)', async () => {
    const r = await run(['org-fields', 'delete', 'name', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('field_code: name is a system field and cannot be deleted');
    expect(await stored('name')).toBeDefined();
  });

  it('delete-many sends the numeric ids as a comma list to the v1 path', async () => {
    const a = await custom('VAT number');
    const b = await custom('Segments');
    const r = await run(['org-fields', 'delete-many', '--ids', `${a.id},${b.id}`, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: [a.id, b.id] });
    expect((await fx.requests())[0]).toMatchObject({ method: 'DELETE', path: '/api/v1/organizationFields', query: { ids: `${a.id},${b.id}` }, cost: 10 });
    expect(await stored(a.field_code)).toBeUndefined();
    expect(await stored(b.field_code)).toBeUndefined();
  });

  it.each([
    [[], '--ids: is required'],
    [['--ids', '1,x'], '--ids: must be a comma-separated list of integers'],
    [['--ids', '0'], '--ids: must be at least 1'],
  ])('delete-many refuses %j before sending', async (args, message) => {
    await refused(['org-fields', 'delete-many', ...args, '--yes'], message);
  });

  it('stages list shows the active deal stages (the ids --important-stage-ids accepts)', async () => {
    const stages = await fx.collection<{ id: number; name: string; pipeline_id: number; order_nr: number }>('stages');
    const r = await run(['stages', 'list', '--pipeline-id', '2', '--output', 'tsv', '--fields', 'id,name,pipeline_id,order_nr']);
    expect(r.stdout).toBe(stages.filter((s) => s.pipeline_id === 2).map((s) => `${s.id}\t${s.name}\t2\t${s.order_nr}\n`).join(''));
    expect((await fx.requests())[0]).toMatchObject({ method: 'GET', path: '/api/v2/stages', query: { pipeline_id: '2' }, cost: 5 });
  });
});
