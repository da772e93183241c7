// Since 2025-07-15 the service does not let archived deals and leads be edited (api-facts §11: PUT
// /v1/deals/{id}, PATCH /api/v2/deals/{id} and PATCH /v1/leads/{id} refuse them); the one change left is
// bringing one back, `is_archived: false` alone, after which it is editable again. The vendor documents no
// status or body for the refusal: the sandbox answers 400 naming the record and the way out
// (docs/interface-deviations.md).
import { invalid } from '../http/errors.js';

export function refuseArchivedEdit(noun: 'deal' | 'lead', id: string | number, body: Record<string, unknown>): void {
  const keys = Object.keys(body);
  if (keys.length === 1 && keys[0] === 'is_archived' && body.is_archived === false) return;
  throw invalid('id', `${noun} ${id} is archived and cannot be changed; un-archive it first by sending is_archived false alone`);
}
