import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** offset: start/limit + additional_data.pagination; cursor: cursor/limit + additional_data.next_cursor. */
export type Pagination = 'offset' | 'cursor' | 'none';

/**
 * Where a prompt finds the choices for one input (a select filled from the account). The list is read
 * only when a person is actually asked; off a TTY nothing is fetched.
 */
export interface PromptSource {
  /** Id of a list operation whose records are the choices: an operation of a table, or a lookup of src/prompts/lookups.ts. */
  from?: string;
  /** Record field sent as the answer (default `id`). */
  value?: string;
  /** Record field shown to the person, or a template such as `{name} ({pipeline_id})` (default `name`). */
  label?: string;
  /** Query for the list; a value `$key` takes an input already given (e.g. the board of a new phase). */
  query?: Record<string, string | number | boolean>;
  /** Inputs that can stand in for this one when a rule needs one of them (a lead: person or organization). */
  or?: string[];
}

/**
 * How an operation shows up on the command line. Kept beside the operation, as restish's x-cli-* hints,
 * so no command needs an `if (op.id === ...)` branch.
 */
export interface OperationCli {
  /** Command path under `crmctl`, e.g. ['leads', 'list'] or ['notes', 'comments', 'add']. */
  command: string[];
  summary: string;
  description?: string;
  /** Full example lines starting with `crmctl `; the first one is shown in --help. */
  examples: string[];
  /** Default table columns (fields of the records). */
  columns?: string[];
  /** Known record fields, for --fields validation before anything is sent. */
  fields?: string[];
  /** Path params taken as positional args, in order (default: every path param in path order). */
  args?: string[];
  /** Destructive: asks for confirmation on a TTY, needs --yes off a TTY. */
  confirm?: boolean;
  /** Flag name per input field path when the derived name is not good, e.g. { 'value.amount': 'amount' }. */
  flagNames?: Record<string, string>;
  /** Help text per input field path (dotted). */
  help?: Record<string, string>;
  /** The records live under this key of `data` (goals: data.goals). */
  unwrap?: string;
  /** The generated command is replaced by a hand-written one with the same path. */
  handWritten?: boolean;
  /** Account-filled choices for prompts, per input key (dotted body/query key, or a path parameter name). */
  prompts?: Record<string, PromptSource>;
}

export interface Operation {
  /** Stable id `<area>.<verb>`, used by docs, tests and the coverage check. */
  id: string;
  method: HttpMethod;
  /** Exactly as the interface writes it, with {param} placeholders. */
  path: string;
  /** Cost units charged by the service; null where the interface states none. */
  cost: number | null;
  /** OAuth scopes, any one of which allows the call. */
  scopes: string[];
  beta?: boolean;
  pagination: Pagination;
  /** Largest page size the service accepts. */
  maxLimit?: number;
  /** 201 for creates that answer so. */
  successStatus?: 200 | 201;
  /** Body encoding; the service wants form bodies for token requests and mail-thread updates. */
  encoding?: 'json' | 'form';
  /** Safe to resend when the outcome is unknown (GET, PUT, PATCH, DELETE are; POST creates are not). */
  idempotent?: boolean;
  params?: z.ZodObject<z.ZodRawShape>;
  query?: z.ZodObject<z.ZodRawShape>;
  /** Object body, or an array body for bulk option operations. */
  body?: z.ZodType;
  cli: OperationCli;
}

/** Typed identity: checks every row against Operation without narrowing to literal types. */
export function defineOperations(ops: Operation[]): Operation[] {
  return ops;
}

/** Names of the {placeholders} in a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

export function isIdempotent(op: Pick<Operation, 'method' | 'idempotent'>): boolean {
  return op.idempotent ?? op.method !== 'POST';
}
