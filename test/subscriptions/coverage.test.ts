// Every Subscriptions and Deal installments operation of the interface is reachable by a named command
// of these two areas, with the operation's path exactly as the interface writes it.
import { describe, expect, it } from 'vitest';
import { area as installments } from '../../src/commands/installments/index.js';
import { area as subscriptions } from '../../src/commands/subscriptions/index.js';
import { effectiveCommands } from '../../src/program.js';
import { hasInterface, interfaceOperations } from '../helpers/interface-spec.js';

describe.skipIf(!hasInterface)('subscriptions and deal installments coverage', () => {
  it('13 interface operations, each called by exactly one command', () => {
    const listed = interfaceOperations().filter((o) => /^(Subscriptions|Deal installments)/.test(o.area)).map((o) => `${o.method} ${o.path}`);
    expect(listed).toHaveLength(13);
    const calls = [...effectiveCommands(subscriptions), ...effectiveCommands(installments)].flatMap((c) =>
      (c.operations ?? []).map((op) => [`${op.method} ${op.path}`, `crmctl ${c.path.join(' ')}`] as const),
    );
    expect(calls.map(([k]) => k).sort()).toEqual([...listed].sort());
    expect(Object.fromEntries(calls)).toEqual({
      'POST /v1/subscriptions/recurring': 'crmctl subscriptions create-recurring',
      'POST /v1/subscriptions/installment': 'crmctl subscriptions create-installment',
      'GET /v1/subscriptions/{id}': 'crmctl subscriptions get',
      'GET /v1/subscriptions/find/{dealId}': 'crmctl subscriptions find',
      'GET /v1/subscriptions/{id}/payments': 'crmctl subscriptions payments',
      'PUT /v1/subscriptions/recurring/{id}': 'crmctl subscriptions update-recurring',
      'PUT /v1/subscriptions/installment/{id}': 'crmctl subscriptions update-installment',
      'PUT /v1/subscriptions/recurring/{id}/cancel': 'crmctl subscriptions cancel',
      'DELETE /v1/subscriptions/{id}': 'crmctl subscriptions delete',
      'GET /api/v2/deals/installments': 'crmctl installments list',
      'POST /api/v2/deals/{id}/installments': 'crmctl installments add',
      'PATCH /api/v2/deals/{id}/installments/{installment_id}': 'crmctl installments update',
      'DELETE /api/v2/deals/{id}/installments/{installment_id}': 'crmctl installments delete',
    });
  });

  it('destructive verbs ask for confirmation; every command has typed flags beyond --data', () => {
    const all = [...effectiveCommands(subscriptions), ...effectiveCommands(installments)];
    const confirmed = all.filter((c) => c.operations?.some((o) => o.cli.confirm)).map((c) => c.path.join(' ')).sort();
    expect(confirmed).toEqual(['installments delete', 'subscriptions cancel', 'subscriptions delete']);
    for (const c of all.filter((x) => x.options?.some((o) => o.flags.startsWith('--data ')))) {
      expect(c.options!.filter((o) => !/^--(data|unset|limit|all|cursor|start) /.test(`${o.flags} `)).length, c.path.join(' ')).toBeGreaterThan(0);
    }
  });
});
