import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { clientFor, expect400 } from './helpers.js';

let fx: SandboxFixture;
const { run, json, api, refused } = clientFor(() => fx);
type Option = { id: number; label: string };
type Field = { id: number; field_code: string; field_name: string; options: Option[] | null };
const field = async (name: string) => (await fx.collection<Field>('organizationFields')).find((f) => f.field_name === name)!;
const optionsPath = (code: string) => `/api/v2/organizationFields/${code}/options`;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('org-fields options add', () => {
  it('--label (repeatable) becomes an array of {label}; prints only the added options', async () => {
    const industry = await field('Industry');
    const r = await run(['org-fields', 'options', 'add', industry.field_code, '--label', 'Retail banking', '--label', 'Public sector', '--output', 'tsv']);
    expect(r.code).toBe(0);
    const after = (await field('Industry')).options!;
    const added = after.slice(industry.options!.length);
    expect(added.map((o) => o.label)).toEqual(['Retail banking', 'Public sector']);
    expect(r.stdout).toBe(added.map((o) => `${o.id}\tRetail banking\n`.replace('Retail banking', o.label)).join(''));
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post).toMatchObject({ path: optionsPath(industry.field_code), cost: 5, body: [{ label: 'Retail banking' }, { label: 'Public sector' }] });
  });

  it('refuses no label before sending, and a non-option field after reading it', async () => {
    const industry = await field('Industry');
    await refused(['org-fields', 'options', 'add', industry.field_code], '--label: at least one option is needed');
    await refused(['org-fields', 'options', 'add', industry.field_code, '--label', ' '], '--label: must not be empty');
    const r = await run(['org-fields', 'options', 'add', 'name', '--label', 'X']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('<field_code>: name is a varchar field; only enum and set fields have options');
    expect((await fx.requests()).map((q) => q.method)).toEqual(['GET']);
  });
});

describe('org-fields options update', () => {
  it('--option ID=LABEL relabels; prints only the updated options', async () => {
    const seg = await field('Segments');
    const [a, b, c] = seg.options!;
    const out = await json(['org-fields', 'options', 'update', seg.field_code, '--option', `${a!.id}=Small business`, '--option', `${c!.id}=Large = enterprise`]);
    expect(out).toEqual([{ id: a!.id, label: 'Small business' }, { id: c!.id, label: 'Large = enterprise' }]);
    const patch = (await fx.requests()).find((q) => q.method === 'PATCH')!;
    expect(patch).toMatchObject({ path: optionsPath(seg.field_code), body: [{ id: a!.id, label: 'Small business' }, { id: c!.id, label: 'Large = enterprise' }] });
    expect((await field('Segments')).options!.map((o) => o.label)).toEqual(['Small business', b!.label, 'Large = enterprise']);
  });

  it('an unknown option id fails the whole change before sending (only the field is read)', async () => {
    const seg = await field('Segments');
    const r = await run(['org-fields', 'options', 'update', seg.field_code, '--option', `${seg.options![0]!.id}=New`, '--option', '9999=Ghost']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--option: no option 9999 on field [0-9a-f]{40}; nothing was changed\. Options: \d+ \(SMB\)/);
    expect((await fx.requests()).map((q) => q.method)).toEqual(['GET']);
    expect((await field('Segments')).options).toEqual(seg.options);
  });

  it.each([
    [['--option', 'abc=Label'], '--option: must be ID=LABEL with a numeric id and a label (got "abc=Label")'],
    [['--option', '12='], '--option: must be ID=LABEL'],
    [[], '--option: at least one option is needed'],
    [['--data', '[]'], 'body: must have at least 1 item'],
  ])('refuses %j before sending', async (args, message) => {
    await refused(['org-fields', 'options', 'update', (await field('Segments')).field_code, ...args], message);
  });
});

describe('org-fields options delete', () => {
  it('--id takes a comma list; needs --yes; prints only the deleted options', async () => {
    const industry = await field('Industry');
    const [a, , c] = industry.options!;
    const no = await run(['org-fields', 'options', 'delete', industry.field_code, '--id', `${a!.id},${c!.id}`]);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    expect((await field('Industry')).options).toHaveLength(industry.options!.length);
    await fx.clearRequests();
    const out = await json(['org-fields', 'options', 'delete', industry.field_code, '--id', `${a!.id},${c!.id}`, '--yes']);
    expect(out).toEqual([{ id: a!.id, label: a!.label }, { id: c!.id, label: c!.label }]);
    const del = (await fx.requests()).find((q) => q.method === 'DELETE')!;
    expect(del).toMatchObject({ path: optionsPath(industry.field_code), cost: 3, body: [{ id: a!.id }, { id: c!.id }] });
    expect((await field('Industry')).options!.map((o) => o.id)).toEqual(industry.options!.map((o) => o.id).filter((id) => id !== a!.id && id !== c!.id));
  });

  it('refuses bad ids before sending, unknown ids after reading the field', async () => {
    const code = (await field('Industry')).field_code;
    await refused(['org-fields', 'options', 'delete', code, '--id', '1,x', '--yes'], '--id: must be positive integer option ids (got "x")');
    await refused(['org-fields', 'options', 'delete', code, '--yes'], '--id: at least one option is needed');
    const r = await run(['org-fields', 'options', 'delete', code, '--id', '4242', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--id: no option 4242');
    expect((await fx.requests()).map((q) => q.method)).toEqual(['GET']);
  });
});

describe('the sandbox enforces the option rules itself (atomic, non-empty, enum/set only)', () => {
  it('an unknown id fails the whole update or delete and changes nothing', async () => {
    const seg = await field('Segments');
    const known = seg.options![0]!.id;
    expect400(await api('PATCH', optionsPath(seg.field_code), [{ id: known, label: 'Changed' }, { id: 9999, label: 'Ghost' }]), `id: option 9999 does not exist on field ${seg.field_code}; nothing was changed`);
    expect400(await api('DELETE', optionsPath(seg.field_code), [{ id: known }, { id: 9999 }]), /^id: option 9999 does not exist/);
    expect((await field('Segments')).options).toEqual(seg.options);
  });

  it('empty arrays, missing labels or ids, and non-option fields are 400s', async () => {
    const code = (await field('Segments')).field_code;
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      expect400(await api(method, optionsPath(code), []), 'body: at least one option is needed');
    }
    expect400(await api('POST', optionsPath(code), [{ label: '' }]), 'body[0].label: is required (a non-empty string)');
    expect400(await api('POST', optionsPath(code), { label: 'X' }), 'body: must be an array of {label}');
    expect400(await api('PATCH', optionsPath(code), [{ label: 'X' }]), '[0].id: is required (an integer option id)');
    expect400(await api('POST', optionsPath('name'), [{ label: 'X' }]), 'field_code: name is a varchar field; only enum and set fields have options');
    expect((await api('POST', optionsPath('nope'), [{ label: 'X' }])).status).toBe(404);
    const added = await api('POST', optionsPath(code), [{ label: 'Startup' }]);
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ success: true, data: [{ id: expect.any(Number), label: 'Startup' }], additional_data: null });
  });
});
