import type { Reader } from '../api/entry-types.js';
import type { Operation } from '../api/operation.js';

/**
 * SEAM for custom fields by name (issue 22 point 3). Helper P builds the translation "named custom
 * fields → keys" and "record → named record" in src/names/ (branch wave2-p); it was not on any branch
 * this could merge when the MCP server was built. When it lands, these two functions call it, and the
 * evaluation task that is skipped for it (test/mcp/evaluation.test.ts, "names") is turned on.
 * Until then arguments must use the fields' keys (the account's fields resource and describe_operation
 * list key, name and options), and results carry keys.
 */
export async function namedArguments(_reader: Reader, _op: Operation, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return args;
}

/** The record with custom-field keys shown by name (`names: true` of call_operation); identity until the seam is filled. */
export async function namedResult(_reader: Reader, _op: Operation, result: unknown): Promise<unknown> {
  return result;
}

/** Whether the seam is filled: the evaluation skips the tasks that need it while it is not. */
export const NAMES_AVAILABLE = false;
