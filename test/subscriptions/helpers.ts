// Shared by the subscription and installment tests: the area client (test/helpers/area-client.ts).
import { areaClient } from '../helpers/area-client.js';

export const cli = areaClient;

/** The state dump leaves the id where the store put it; compare records by content. */
export const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);
