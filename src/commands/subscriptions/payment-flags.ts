import { payment } from '../../api/operations/subscriptions.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { readJsonInput } from '../../input/sources.js';
import { extension } from '../operation-command.js';

/**
 * Payments are an array of {amount, due_at, description}. Typing JSON on a command line is error-prone,
 * so `--payment AMOUNT:DUE_AT[:DESCRIPTION]` (repeatable) and `--payments-file FILE` replace the generated JSON flag.
 */
const paymentFlags = {
  payment: flag.list({
    value: 'AMOUNT:DUE_AT[:DESCRIPTION]',
    description: 'one payment, repeatable; e.g. --payment 500:2026-03-01:"Setup fee" (the description may contain colons)',
  }),
  paymentsFile: flag.string({ value: 'file', description: 'JSON array of {"amount","due_at","description"}; - reads stdin' }),
};

const AMOUNT = /^-?\d+(\.\d+)?$/;

/** `500:2026-03-01:Setup fee` → {amount: 500, due_at: '2026-03-01', description: 'Setup fee'}. */
export function parsePaymentFlag(text: string, index: number): { amount: number; due_at: string; description?: string } {
  const bad = (rule: string): never => {
    throw new ValidationError([{ field: '--payment', rule: `item ${index + 1} (${JSON.stringify(text)}): ${rule}` }]);
  };
  const [amount, dueAt, ...rest] = text.split(':');
  if (dueAt === undefined) bad('must be AMOUNT:DUE_AT[:DESCRIPTION], e.g. 500:2026-03-01:Setup fee');
  if (!AMOUNT.test(amount!.trim())) bad('AMOUNT must be a number');
  const due = dueAt!.trim();
  const date = payment().shape.due_at.safeParse(due);
  if (!date.success) bad(`DUE_AT ${date.error.issues[0]!.message}`);
  const description = rest.join(':').trim();
  return { amount: Number(amount), due_at: due, ...(description ? { description } : {}) };
}

/** Items of a payments file, each checked so the message names the item. */
function checkFileItems(items: unknown): unknown[] {
  if (!Array.isArray(items)) throw new ValidationError([{ field: '--payments-file', rule: 'must hold a JSON array of payments' }]);
  items.forEach((item, i) => {
    const r = payment().safeParse(item);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      const key = issue.path.map(String).join('.') || 'item';
      const rule = issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined ? 'is required' : issue.message;
      throw new ValidationError([{ field: '--payments-file', rule: `item ${i + 1}: ${key} ${rule}` }]);
    }
  });
  return items;
}

/**
 * Fills the body's `payments` from --payment / --payments-file. These replace the generated JSON flag
 * `--payment` (table flagNames) with friendlier input; the schemas then check the result as usual.
 */
export const payments = extension({
  flags: paymentFlags,
  async adjust(ctx, raw, given) {
    const flags = given.payment;
    const file = given.paymentsFile;
    if (flags.length && file !== undefined) throw new UsageError('give payments either with --payment or with --payments-file, not both');
    let items: unknown[] | undefined;
    if (flags.length) items = flags.map(parsePaymentFlag);
    else if (file !== undefined) items = checkFileItems(await readJsonInput(ctx.io.stdin, file === '-' ? '-' : `@${file}`, '--payments-file'));
    if (!items) return raw;
    return { ...raw, body: { ...(raw.body && typeof raw.body === 'object' ? (raw.body as object) : {}), payments: items } };
  },
});
