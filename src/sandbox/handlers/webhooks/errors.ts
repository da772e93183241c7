// The webhooks endpoints answer errors in their own shape (the vendor's documents):
// {"status":"error","success":false,"errors":{"<field>":["<rule>"]}}.
import { ApiError } from '../../http/errors.js';

export function webhookError(status: number, field: string, rule: string): ApiError {
  return new ApiError(status, `${field}: ${rule}`, undefined, { status: 'error', success: false, errors: { [field]: [rule] } });
}

export const invalidField = (field: string, rule: string) => webhookError(400, field, rule);

/** The service's exact words for any subscription_url it refuses. */
export const badUrl = () => invalidField('subscription_url', 'invalid or non-reachable URL');

export const webhookNotFound = () => webhookError(404, 'id', 'not found');
