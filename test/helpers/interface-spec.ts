import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** ../shared beside the repo: reference data we test against and never copy. */
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const INTERFACE_MD = `${SHARED}spec/service-interface.md`;
export const OPENAPI_DIR = `${SHARED}reference/openapi/`;
export const hasInterface = existsSync(INTERFACE_MD);
export const hasOpenApi = existsSync(`${OPENAPI_DIR}pipedrive-v1.yaml`) && existsSync(`${OPENAPI_DIR}pipedrive-v2.yaml`);

export interface InterfaceOperation {
  area: string;
  method: string;
  path: string;
  /** The Cost column when the table has one and states a number. */
  cost?: number;
}

/** Every row of the endpoint tables under "## Endpoints" of the service interface, with its area heading. */
export function interfaceOperations(): InterfaceOperation[] {
  const text = readFileSync(INTERFACE_MD, 'utf8');
  const start = text.indexOf('\n## Endpoints');
  const end = text.indexOf('\n## ', start + 5);
  const section = text.slice(start, end);
  const out: InterfaceOperation[] = [];
  let area = '';
  let sub = '';
  let costColumn = -1;
  for (const line of section.split('\n')) {
    const h = /^### (.+)$/.exec(line);
    if (h) {
      area = h[1]!.trim();
      sub = '';
      continue;
    }
    const label = /^([A-Z][A-Za-z ]+):\s*$/.exec(line);
    if (label) sub = label[1]!;
    const header = /^\|\s*Method\s*\|/.exec(line);
    if (header) costColumn = line.split('|').map((c) => c.trim()).indexOf('Cost');
    const row = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*([^|\s]+)\s*\|/.exec(line);
    if (row) {
      const cell = costColumn > 0 ? line.split('|').map((c) => c.trim())[costColumn] : undefined;
      const cost = cell !== undefined && /^\d+$/.test(cell) ? Number(cell) : undefined;
      out.push({ area: sub ? `${area} / ${sub}` : area, method: row[1]!, path: row[2]!, cost });
    }
  }
  return out;
}
