import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LABEL_COLORS } from '../../src/api/operations/lead-labels.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { runWithPrompts, type Asked } from './helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

const run = (path: string[], args: string[], opts: Record<string, unknown>, script: Parameters<typeof runWithPrompts>[4]) => runWithPrompts(path, args, opts, fx.env, script);
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');
const names = (q: Asked) => q.choices!.map((c) => c.name);

describe('prompts on a terminal: missing inputs are asked, with choices from the account', () => {
  it('leads create with no flags: title, then person or organization, then a person picked from the account', async () => {
    const persons = await fx.collection<{ id: number; name: string }>('persons');
    const chosen = persons[1]!;
    const r = await run(['leads', 'create'], [], {}, [
      (q) => {
        // Same rules as --title: blank is refused at the prompt.
        expect(q.validate!('   ')).toMatch(/title/);
        return 'Prompted lead';
      },
      'person',
      chosen.name,
    ]);
    expect(r.error).toBeUndefined();
    expect(r.asked.map((q) => q.kind)).toEqual(['input', 'select', 'select']);
    expect(r.asked[0]!.message).toMatch(/^title/);
    expect(r.asked[1]!.message).toBe('A lead needs a person or an organization. Which will you give?');
    expect(names(r.asked[1]!)).toEqual(['person', 'organization']);
    expect(r.asked[2]!.message).toBe('person:');
    // Every live person of the account is offered (plus "Other"), by name.
    expect(names(r.asked[2]!)).toEqual([...persons.map((p) => p.name), 'Other (type the id)']);
    const lead = JSON.parse(r.stdout);
    expect(lead).toMatchObject({ title: 'Prompted lead', person_id: chosen.id });
    expect(await writes()).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/leads', body: { title: 'Prompted lead', person_id: chosen.id } })]);
    expect((await fx.requests()).some((q) => q.method === 'GET' && q.path === '/api/v2/persons')).toBe(true);
  });

  it('organizations are offered from the account; "Other" types the id, checked with the flag rules', async () => {
    const orgs = await fx.collection<{ id: number; name: string }>('organizations');
    const r = await run(['leads', 'create'], [], { title: 'Org lead' }, [
      'organization',
      (q: Asked) => {
        expect(q.kind).toBe('select');
        expect(names(q)).toEqual([...orgs.map((o) => o.name), 'Other (type the id)']);
        return q.choices!.at(-1)!.value;
      },
      (q: Asked) => {
        expect(q.kind).toBe('input');
        expect(q.message).toBe('organization id:');
        expect(q.validate!('abc')).toBe('must be an integer (got "abc")');
        expect(q.validate!('0')).toBe('must be at least 1');
        return '1';
      },
    ]);
    expect(r.error).toBeUndefined();
    expect(r.left).toBe(0);
    expect(await writes()).toEqual([expect.objectContaining({ method: 'POST', body: { title: 'Org lead', organization_id: 1 } })]);
  });

  it('lead-labels create: name typed, colour from the enum of the table', async () => {
    const r = await run(['lead-labels', 'create'], [], {}, [(q: Asked) => {
      expect(q.validate!('')).toMatch(/required/);
      return 'Prompted';
    }, 'green']);
    expect(r.error).toBeUndefined();
    expect(names(r.asked[1]!)).toEqual([...LABEL_COLORS]);
    expect(await writes()).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/leadLabels', body: { name: 'Prompted', color: 'green' } })]);
  });

  it('lead-labels delete with no id: the label is picked by name, then confirmed', async () => {
    const labels = await fx.collection<{ id: string; name: string }>('leadLabels');
    const warm = labels.find((l) => l.name === 'Warm')!;
    const r = await run(['lead-labels', 'delete'], [], {}, ['Warm', true]);
    expect(r.error).toBeUndefined();
    expect(names(r.asked[0]!)).toEqual([...labels.map((l) => l.name), 'Other (type the id)']);
    expect(r.asked[1]!.kind).toBe('confirm');
    expect(r.asked[1]!.message).toContain(warm.id);
    expect(await writes()).toEqual([expect.objectContaining({ method: 'DELETE', path: `/api/v1/leadLabels/${warm.id}` })]);
  });

  it('declining the confirmation cancels (exit 3) and sends no delete', async () => {
    const r = await run(['lead-labels', 'delete'], [], {}, ['Warm', false]);
    expect(r.error?.exitCode).toBe(3);
    expect(await writes()).toEqual([]);
  });

  it('an update with nothing given asks what to change, then the new value', async () => {
    const lead = (await fx.collection<{ id: string; title: string }>('leads'))[0]!;
    const r = await run(['leads', 'update'], [lead.id], {}, ['title', 'Renamed at the prompt']);
    expect(r.error).toBeUndefined();
    expect(r.asked[0]!.message).toBe('What do you want to change?');
    expect(names(r.asked[0]!)).toContain('value amount');
    expect(await writes()).toEqual([expect.objectContaining({ method: 'PATCH', path: `/api/v1/leads/${lead.id}`, body: { title: 'Renamed at the prompt' } })]);
  });

  it('roles assignments add: the role and the user are both picked from the account', async () => {
    const roles = await fx.collection<{ id: number; name: string }>('roles');
    const users = await fx.collection<{ id: number; name: string }>('users');
    const role = roles[roles.length - 1]!;
    const user = users.find((u) => u.id !== 1)!;
    const r = await run(['roles', 'assignments', 'add'], [], {}, [role.name, user.name]);
    expect(r.error, r.stderr).toBeUndefined();
    expect(names(r.asked[0]!)).toEqual([...roles.map((x) => x.name), 'Other (type the id)']);
    expect(names(r.asked[1]!)).toEqual([...users.map((x) => x.name), 'Other (type the id)']);
    expect(await writes()).toEqual([expect.objectContaining({ method: 'POST', path: `/api/v1/roles/${role.id}/assignments`, body: { user_id: user.id } })]);
  });

  it('a rule that needs one of two inputs offers the choice in plain words (subscriptions: cycles count or infinite)', async () => {
    const r = await run(['subscriptions', 'create-recurring'], [], { dealId: '2', currency: 'EUR', cadenceType: 'monthly', cycleAmount: '100', startDate: '2026-01-01' }, ['infinite', true]);
    expect(r.asked[0]!.message).toBe('Cycles count is required unless --infinite is set. Which will you give?');
    expect(names(r.asked[0]!)).toEqual(['cycles count', 'infinite']);
    expect(r.asked[1]).toMatchObject({ kind: 'confirm', flag: '--infinite' });
    const post = (await writes())[0]!;
    expect(post).toMatchObject({ method: 'POST', path: '/v1/subscriptions/recurring' });
    expect((post.body as Record<string, unknown>).infinite).toBe(true);
    expect((post.body as Record<string, unknown>).cycles_count).toBeUndefined();
  });

  it('notes create: the attachment rule is asked as a choice of targets, then a person from the account', async () => {
    const persons = await fx.collection<{ id: number; name: string }>('persons');
    const r = await run(['notes', 'create'], [], { content: 'Called, interested' }, ['person', persons[0]!.name]);
    expect(r.error, r.stderr).toBeUndefined();
    expect(r.asked[0]!.message).toBe('A note must be attached to something. Which will you give?');
    expect(names(r.asked[0]!)).toEqual(['deal', 'person', 'org', 'lead', 'project']);
    expect(r.asked[1]!.message).toMatch(/^person/);
    expect(await writes()).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/notes', body: expect.objectContaining({ content: 'Called, interested', person_id: persons[0]!.id }) })]);
  });

  it('installment amounts and dates are refused at the prompt with the rules of the flags', async () => {
    const r = await run(['deal-installments', 'add'], ['1'], {}, [
      'First payment',
      (q: Asked) => {
        expect(q.validate!('0')).toBe('must be greater than 0');
        expect(q.validate!('x')).toMatch(/must be a number/);
        return '100';
      },
      (q: Asked) => {
        expect(q.validate!('2026-02-30')).toBe('must be a real calendar date YYYY-MM-DD');
        return '2026-03-01';
      },
    ]);
    expect(r.asked.map((q) => q.message.split(/[ :(]/)[0])).toEqual(['description', 'amount', 'billing']);
    // Whatever the service says about deal 1, what was sent is what was answered.
    const post = (await writes())[0]!;
    expect(post).toMatchObject({ method: 'POST', path: '/api/v2/deals/1/installments', body: { description: 'First payment', amount: 100, billing_date: '2026-03-01' } });
  });
});
