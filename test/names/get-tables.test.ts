// One record by name (issue 20, point 1 for gets): `deals get 1` and the gets of persons, organizations,
// activities, leads and products show, in table, TSV and CSV, linked records by name (owner, organization,
// person, stage, pipeline), money with its currency and every custom field under its name with option
// labels; json keeps the service's record (and --names gives it by name). Names cost reads the request
// log shows: the field list (cached per profile) and one list per linked kind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBin, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
let config: string;
const bin = (args: string[]) => runBin(args, { env: { ...fx.env, CRMCTL_CONFIG_DIR: config } });
const ok = async (args: string[]) => {
  const r = await bin(args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(0);
  return r.stdout;
};
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`).sort();
const LEAD = '96381d3b-1c60-4f26-a540-d194badf070e';

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
});
afterAll(async () => fx?.close());
beforeEach(async () => {
  await fx.reset('demo');
  config = tempConfigDir();
  await ok(['deals', 'update', '1', '--field', 'Budget=5000 EUR', '--field', 'Segment=Enterprise', '--field', 'Interests=Licences,Training', '--json']);
  await fx.clearRequests();
});

describe('deals get 1', () => {
  it('piped (TSV): stage, pipeline, owner, organization and person by name, value with currency, custom values as labels', async () => {
    // labels (none on this deal) by name too.
    expect(await ok(['deals', 'get', '1'])).toBe('1\tAcme annual licence\topen\t24000 EUR\tSales\tDemo Scheduled\tAda Admin\tAcme Corporation\tAlice Andersson\t\t40\t5000 EUR\tEnterprise\t\tLicences, Training\t\t\t\t\n');
    // The deal and one list per linked kind; the field names were read by the update before (kept per profile).
    expect(await sent()).toEqual(['GET /api/v2/deals/1', 'GET /api/v2/organizations', 'GET /api/v2/persons', 'GET /api/v2/pipelines', 'GET /api/v2/stages', 'GET /api/v1/users'].sort());
  });

  it('CSV heads the columns by name: "Lead score", "Segment"...', async () => {
    expect(await ok(['deals', 'get', '1', '-o', 'csv'])).toBe(
      'id,title,status,value,pipeline,stage,owner,organization,person,labels,Lead score,Budget,Segment,Deal notes,Interests,Renewal date,Account manager,Partner,Technical contact\r\n' +
        '1,Acme annual licence,open,24000 EUR,Sales,Demo Scheduled,Ada Admin,Acme Corporation,Alice Andersson,,40,5000 EUR,Enterprise,,"Licences, Training",,,,\r\n',
    );
  });

  it('the record form (-o table) shows each field by name beside its value', async () => {
    const rows = (await ok(['deals', 'get', '1', '-o', 'table'])).trimEnd().split('\n').map((l) => /^(.+?):(?: +(.*))?$/.exec(l)!.slice(1).map((c) => c ?? ''));
    expect(rows).toEqual([
      ['id', '1'], ['title', 'Acme annual licence'], ['status', 'open'], ['value', '24000 EUR'], ['pipeline', 'Sales'], ['stage', 'Demo Scheduled'],
      ['owner', 'Ada Admin'], ['organization', 'Acme Corporation'], ['person', 'Alice Andersson'], ['labels', ''], ['Lead score', '40'], ['Budget', '5000 EUR'],
      ['Segment', 'Enterprise'], ['Deal notes', ''], ['Interests', 'Licences, Training'], ['Renewal date', ''], ['Account manager', ''], ['Partner', ''], ['Technical contact', ''],
    ]);
  });

  it('json keeps the service record and reads nothing more; --names gives it by name', async () => {
    const raw = JSON.parse(await ok(['deals', 'get', '1', '--json']));
    expect([raw.stage_id, raw.owner_id, raw.value, raw.currency, raw.stage, raw['Lead score']]).toEqual([3, 1, 24000, 'EUR', undefined, undefined]);
    expect(await sent()).toEqual(['GET /api/v2/deals/1']);
    const named = JSON.parse(await ok(['deals', 'get', '1', '--json', '--names']));
    expect([named['Lead score'], named.Segment, named.Budget]).toEqual([40, 'Enterprise', { value: 5000, currency: 'EUR' }]);
  });

  it('--fields picks named columns', async () => {
    expect(await ok(['deals', 'get', '1', '--fields', 'title,stage,Segment'])).toBe('Acme annual licence\tDemo Scheduled\tEnterprise\n');
  });
});

describe('the other gets by name (CSV)', () => {
  it('persons get: owner and organization by name, custom fields by name in place of the custom_fields object', async () => {
    const [head, row] = (await ok(['persons', 'get', '2', '-o', 'csv'])).split('\r\n');
    expect(head).toBe('id,name,first_name,last_name,owner,organization,add_time,update_time,emails,phones,is_deleted,visible_to,labels,picture_id,ims,postal_address,notes,birthday,job_title,Preferred language,Interests,LinkedIn profile,Lifetime value');
    expect(row).toContain('2,Bob Berzins,Bob,Berzins,Reggie Regular,Globex Industries,');
    expect(row!.endsWith(',CFO,Estonian,,,')).toBe(true);
  });

  it('organizations get: owner by name and the organization fields', async () => {
    expect(await ok(['organizations', 'get', '1', '-o', 'csv'])).toBe(
      'id,name,owner,labels,add_time,update_time,Industry,Employees,Segments,Annual revenue,VAT number,Contract period\r\n1,Acme Corporation,Ada Admin,,2025-01-06T09:00:00Z,2025-01-06T09:00:00Z,,,,,,\r\n',
    );
  });

  it('activities get: deal, person, organization and owner by name', async () => {
    expect(await ok(['activities', 'get', '1', '-o', 'csv'])).toBe('id,subject,type,deal,person,organization,owner\r\n1,Quote follow-up call,call,,Alice Andersson,,Ada Admin\r\n');
  });

  it('leads get: owner, creator, person and organization by name, value with its currency, the deal fields by name', async () => {
    const [head, row] = (await ok(['leads', 'get', LEAD, '-o', 'csv'])).split('\r\n');
    expect(head).toBe('id,title,owner,creator,labels,person,organization,source_name,origin,origin_id,channel,channel_id,source_deal_id,is_archived,archive_reason,was_seen,value,expected_close_date,next_activity_id,add_time,update_time,visible_to,cc_email,Lead score,Budget,Segment,Deal notes,Interests,Renewal date,Account manager,Partner,Technical contact');
    // Labels by name (the lead label list), not their UUIDs.
    expect(row).toContain(`${LEAD},Acme rollout to second site,Ada Admin,Ada Admin,Hot,`);
    expect(row).toContain(',Alice Andersson,Acme Corporation,');
    expect(row).toContain(',18000 EUR,');
  });

  it('products get: owner by name, prices with their currencies', async () => {
    expect(await ok(['products', 'get', '1', '-o', 'csv'])).toBe(
      'id,name,code,prices,owner,add_time,update_time,Warranty (months),Platform\r\n1,Analytics seat,AN-SEAT,800 EUR,Ada Admin,2025-01-06T09:00:00Z,2025-01-06T09:00:00Z,,\r\n',
    );
  });
});
