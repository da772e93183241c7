// Shared by the fields tests: the area client (test/helpers/area-client.ts) and the 400 check.
import { expect } from 'vitest';
import { areaClient } from '../helpers/area-client.js';

export const clientFor = areaClient;

/** The service's 400 body for a rule: success false, "<field>: <rule>", data null. */
export function expect400(res: { status: number; body: any }, error: string | RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, data: null });
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
}
