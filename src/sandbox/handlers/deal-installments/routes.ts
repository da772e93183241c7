// Deal installments (v2; Growth plan and above). Costs and scopes as the interface / the vendor's OpenAPI
// list them: the vendor accepts deals:read as well as deals:full on every operation, writes included.
import { ok } from '../../http/envelope.js';
import { ApiError, forbidden, invalid } from '../../http/errors.js';
import { cursorPage } from '../../http/paginate.js';
import { has, isDate, objectBody, rejectUnknown, type Body } from '../../http/validate.js';
import type { Deal } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { installmentBlocker } from './products.js';

const SCOPES = ['deals:read', 'deals:full'];
const MAX_DEAL_IDS = 100;

export interface Installment { id: number; deal_id: number; description: string; amount: number; billing_date: string; [k: string]: unknown }

export const installments = (s: SandboxState) => s.collection<Installment>('dealInstallments', { idKind: 'int' });
export const installmentsOf = (s: SandboxState, dealId: number) => installments(s).filter((i) => i.deal_id === dealId);

const present = (i: Installment) => ({ id: i.id, amount: i.amount, billing_date: i.billing_date, description: i.description, deal_id: i.deal_id });

/** Growth plan and above (interface). */
function checkPlan(state: SandboxState): void {
  if (state.company.plan === 'light') throw forbidden('Deal installments are available on the Growth plan and above.', 'Upgrade the company plan to use installments.');
}

function positiveId(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(name, 'must be a positive integer');
  return Number(raw);
}

function loadDeal(req: SandboxRequest, state: SandboxState): Deal {
  const deal = state.deals.get(positiveId('id', req.params.id!));
  if (!deal) throw new ApiError(404, 'Deal not found', 'Object was not found.');
  if (!canSee(state, req.user, deal)) throw forbidden();
  return deal;
}

function loadInstallment(req: SandboxRequest, state: SandboxState, deal: Deal): Installment {
  const inst = installments(state).get(positiveId('installment_id', req.params.installment_id!));
  if (!inst || inst.deal_id !== deal.id) throw new ApiError(404, 'Installment not found', 'Object was not found.');
  return inst;
}

function checkProducts(state: SandboxState, dealId: number): void {
  const why = installmentBlocker(state, dealId);
  if (why) throw invalid('id', why);
}

/** description, amount (> 0), billing_date (YYYY-MM-DD); all required on add, any on update. */
function parseFields(raw: unknown, required: boolean): Partial<Pick<Installment, 'description' | 'amount' | 'billing_date'>> {
  const b: Body = objectBody(raw, !required);
  rejectUnknown(b, ['description', 'amount', 'billing_date']);
  const out: Partial<Pick<Installment, 'description' | 'amount' | 'billing_date'>> = {};
  for (const k of ['description', 'amount', 'billing_date'] as const) {
    if (!has(b, k) || b[k] === null) {
      if (required) throw invalid(k, 'is required');
      if (b[k] === null) throw invalid(k, 'must not be null');
    }
  }
  if (has(b, 'description')) {
    if (typeof b.description !== 'string' || !b.description.trim()) throw invalid('description', 'must be a non-empty string');
    out.description = b.description;
  }
  if (has(b, 'amount')) {
    if (typeof b.amount !== 'number' || !Number.isFinite(b.amount)) throw invalid('amount', 'must be a number');
    if (b.amount <= 0) throw invalid('amount', 'must be greater than 0');
    out.amount = b.amount;
  }
  if (has(b, 'billing_date')) {
    if (typeof b.billing_date !== 'string' || !isDate(b.billing_date)) throw invalid('billing_date', 'must be a date in YYYY-MM-DD format');
    out.billing_date = b.billing_date;
  }
  return out;
}

const SORT_BY = ['id', 'billing_date', 'deal_id'] as const;

function list(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  checkPlan(state);
  const q = req.query;
  const raw = q.list('deal_ids');
  if (!raw || raw.length === 0) throw invalid('deal_ids', 'is required');
  if (raw.length > MAX_DEAL_IDS) throw invalid('deal_ids', `must have at most ${MAX_DEAL_IDS} ids`);
  const ids = new Set(raw.map((x) => positiveId('deal_ids', x)));
  const sortBy = q.oneOf('sort_by', SORT_BY) ?? 'id';
  const dir = q.oneOf('sort_direction', ['asc', 'desc'] as const) ?? 'asc';
  // Deals that do not exist or are hidden are left out, as list filters by ids do elsewhere.
  const visible = (dealId: number) => { const d = state.deals.get(dealId); return d !== undefined && canSee(state, req.user, d); };
  const sign = dir === 'asc' ? 1 : -1;
  const rows = installments(state)
    .filter((i) => ids.has(i.deal_id) && visible(i.deal_id))
    .sort((a, b) => {
      const x = a[sortBy], y = b[sortBy];
      return (x < y ? -1 : x > y ? 1 : 0) * sign || (a.id - b.id) * sign;
    });
  const page = cursorPage(rows, q, { field: sortBy, direction: dir, maxLimit: 500, defaultLimit: 100 });
  return ok(page.data.map(present), page.additional_data);
}

function add(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  checkPlan(state);
  const deal = loadDeal(req, state);
  const f = parseFields(req.body, true) as Required<ReturnType<typeof parseFields>>;
  checkProducts(state, deal.id);
  return ok(present(installments(state).insert({ deal_id: deal.id, ...f }, { userId: req.userId })));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  checkPlan(state);
  const deal = loadDeal(req, state);
  const inst = loadInstallment(req, state, deal);
  const f = parseFields(req.body, false);
  checkProducts(state, deal.id);
  return ok(present(installments(state).update(inst.id, f, { userId: req.userId })));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  checkPlan(state);
  const deal = loadDeal(req, state);
  const inst = loadInstallment(req, state, deal);
  installments(state).markDeleted(inst.id, {}, { userId: req.userId });
  return ok({ id: inst.id });
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/api/v2/deals/installments', cost: 10, scopes: SCOPES, handler: list },
  { method: 'POST', path: '/api/v2/deals/{id}/installments', cost: 5, scopes: SCOPES, handler: add },
  { method: 'PATCH', path: '/api/v2/deals/{id}/installments/{installment_id}', cost: 5, scopes: SCOPES, handler: update },
  { method: 'DELETE', path: '/api/v2/deals/{id}/installments/{installment_id}', cost: 3, scopes: SCOPES, handler: remove },
];
