import { METRICS } from './analytics/metric-names.js';
import { CHECK_IDS } from './audit/checks.js';
import { SEVERITIES } from './types.js';

/**
 * Account health as MCP read tools, listed with the default (discovery) tools: the audit, the
 * pipeline analytics and a dedupe plan (their calls: mcp-tools.ts, loaded on the first call). The
 * shapes are structural (no import of src/mcp), so src/mcp/discovery.ts lists them with one line and
 * dispatches with another.
 */

export interface HealthTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
  annotations: { title: string; readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: false };
}

const read = (title: string) => ({ title, readOnlyHint: true as const, destructiveHint: false as const, idempotentHint: true as const, openWorldHint: false as const });
const DAY = { type: 'string', description: 'YYYY-MM-DD' };

export const HEALTH_TOOLS: HealthTool[] = [
  {
    name: 'account_audit',
    title: 'Audit the account data',
    description: `Data health findings (read-only): duplicates, deals without next activity, stale deals, past close dates, empty required fields, overdue activities, money without currency, bad e-mails/phones. Reads every deal, person, organization and undone activity once (10 a page of 500 each, plus stages and field lists).`,
    inputSchema: {
      type: 'object',
      properties: {
        checks: { type: 'array', items: { type: 'string', enum: [...CHECK_IDS] }, description: 'only these checks (default all)' },
        min_severity: { type: 'string', enum: [...SEVERITIES], description: 'default info' },
        as_of: DAY,
        region: { type: 'string', description: 'country of national phone numbers, e.g. EE' },
        limit: { type: 'integer', minimum: 1, maximum: 500, description: 'findings returned, default 100' },
      },
      additionalProperties: false,
    },
    annotations: read('Audit the account data'),
  },
  {
    name: 'pipeline_analytics',
    title: 'Pipeline analytics',
    description: 'One metric of a pipeline from one read of its deals (read-only); money per currency. velocity and slippage also read each deal\'s changelog (20 a deal).',
    inputSchema: {
      type: 'object',
      properties: {
        metric: { type: 'string', enum: [...METRICS] },
        pipeline: { type: 'string', description: 'name or id (needed with several pipelines)' },
        as_of: DAY,
        from: DAY,
      },
      required: ['metric'],
      additionalProperties: false,
    },
    annotations: read('Pipeline analytics'),
  },
  {
    name: 'dedupe_plan',
    title: 'Plan a dedupe',
    description: 'Duplicate persons or organizations grouped, the record each group keeps and the merges that would run (read-only: nothing is merged; crmctl undo of a dedupe run re-creates the merged records with new ids and moves their deals, activities, notes, leads, participations and followers back; files stay). Reads every record of the kind (10 a page of 500).',
    inputSchema: {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['persons', 'organizations'] }, keep: { type: 'string', enum: ['oldest', 'most-complete'] }, region: { type: 'string' } },
      required: ['kind'],
      additionalProperties: false,
    },
    annotations: read('Plan a dedupe'),
  },
];

export const isHealthTool = (name: string): boolean => HEALTH_TOOLS.some((t) => t.name === name);
