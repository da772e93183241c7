import type * as z from 'zod/mini';
import type { Deprecation } from '../core/deprecation.js';
import { deprecationOf } from './deprecations.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a call does to the account: reads nothing changes; destructive loses data or access (deletes, archives, deactivations...). */
export type Effect = 'read' | 'write' | 'destructive';

/** offset: start/limit + additional_data.pagination; cursor: cursor/limit + additional_data.next_cursor. */
export type Pagination = 'offset' | 'cursor' | 'none';

/**
 * Where a prompt finds the choices for one input (a select filled from the account). The list is read
 * only when a person is actually asked; off a TTY nothing is fetched.
 */
export interface PromptSource {
  /** Id of a list operation (`area.key`) whose records are the choices. A test checks every id resolves. */
  from?: string;
  /** Record field sent as the answer (default `id`). */
  value?: string;
  /** Record field shown to the person, or a template such as `{name} ({pipeline_id})` (default `name`). */
  label?: string;
  /**
   * Query for the list; a value `$key` takes an input already given (e.g. the board of a new phase),
   * `$?key` the same when given and nothing when not (stages of the chosen pipeline, or all stages).
   */
  query?: Record<string, string | number | boolean>;
  /** Inputs that can stand in for this one when a rule needs one of them (a lead: person or organization). */
  or?: string[];
}

/**
 * How an operation shows up on the command line. Kept beside the operation, as restish's x-cli-* hints,
 * so no command needs an `if (op.id === ...)` branch.
 */
/** Item types whose records carry custom fields (src/names translates their names). */
export type CustomFieldItemType = 'deal' | 'person' | 'organization' | 'product' | 'project' | 'lead' | 'activity';

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
  /** Destructive: asks for confirmation on a TTY, needs --yes off a TTY (and --allow-destructive in `crmctl mcp`). */
  confirm?: boolean;
  /** Flag name per input field path when the derived name is not good, e.g. { 'value.amount': 'amount' }. */
  flagNames?: Record<string, string>;
  /** Help text per input field path (dotted). */
  help?: Record<string, string>;
  /** The records live under this key of `data` (goals: data.goals). */
  unwrap?: string;
  /** The service answers bare values (user ids): each becomes a record `{ [wrapValues]: value }`. */
  wrapValues?: string;
  /**
   * No command is generated: the area registers a hand-written one that calls this operation with
   * typed input (the one way to replace a generated command).
   */
  handWritten?: boolean;
  /**
   * Another form of the operation at the same `command` path, chosen with this flag (e.g. `--v1`): the
   * command offers the flags of both forms and refuses a flag the chosen form does not know.
   */
  switch?: string;
  /** The operation sends a file (multipart/form-data): the command takes `--file PATH|-` for this form field. */
  upload?: { field: string; maxBytes?: number };
  /** The body may be empty: an update verb with no flags sends `{}` instead of asking what to change. */
  optionalBody?: boolean;
  /** Account-filled choices for prompts, per input key (dotted body/query key, or a path parameter name). */
  prompts?: Record<string, PromptSource>;
  /**
   * Optional inputs worth asking at a terminal when no flag gave them, in this order (a deal: its
   * pipeline, then a stage of that pipeline). Each question can be skipped (the service's default).
   */
  ask?: string[];
  /**
   * The records (or the body) carry custom fields of this item type: a read offers `--names` and
   * custom-field names in --fields; a write takes `--field NAME=VALUE` (src/names, docs/custom-fields.md).
   */
  customFields?: CustomFieldItemType;
}

type ObjectSchema = z.ZodMiniObject<z.core.$ZodShape>;

/** One row of an operation table: everything the CLI, docs, completions and `crmctl mcp` know of an endpoint. */
export interface OperationSpec {
  method: HttpMethod;
  /** Exactly as the interface (or the vendor's documents) writes it, with {param} placeholders. */
  path: string;
  /** Cost units charged by the service; null where none is stated. */
  cost: number | null;
  /** OAuth scopes, any one of which allows the call. */
  scopes: readonly string[];
  beta?: boolean;
  pagination: Pagination;
  /** Largest page size the service accepts. */
  maxLimit?: number;
  /** 201 for creates that answer so. */
  successStatus?: 200 | 201;
  /** Body encoding; the service wants form bodies for token requests and mail-thread updates. */
  encoding?: 'json' | 'form' | 'multipart';
  /** Safe to resend when the outcome is unknown (GET, PUT, PATCH, DELETE are; POST creates are not). */
  idempotent?: boolean;
  /**
   * What the call does to the account when its method does not say it (src/api/effect.ts): a POST or PUT
   * that deletes, archives or replaces data is `destructive`. Calls whose arguments decide are in
   * src/api/effect-rules.ts instead.
   */
  effect?: Effect;
  params?: ObjectSchema;
  query?: z.ZodMiniType;
  /** Object body, or an array body for bulk option operations. */
  body?: z.ZodMiniType;
  cli: OperationCli;
  /**
   * The vendor deprecated this v1 form (it has a v2 form): set by defineTable from the vendor's
   * deprecations (src/api/deprecations.ts), never written in a table.
   */
  deprecated?: Deprecation;
}

/** A row with its identity: `id` is `<area>.<key>` (`leads.update`), stable for docs, tests and checkpoints. */
export type Operation<S extends OperationSpec = OperationSpec> = S & { readonly id: string; readonly area: string; readonly key: string };

type SchemaKey = 'params' | 'query' | 'body';
const SCHEMA_KEYS: readonly SchemaKey[] = ['params', 'query', 'body'];

/**
 * A row as a table writes it: its schemas may be given as thunks (`query: () => z.object(...)`), built on
 * first access and kept. A command builds the schemas of the operations it runs, not of its whole area
 * (building every zod schema of a table was most of the cost of loading it).
 */
export type OperationRow = Omit<OperationSpec, SchemaKey | 'deprecated'> & {
  params?: ObjectSchema | (() => ObjectSchema);
  query?: z.ZodMiniType | (() => z.ZodMiniType);
  body?: z.ZodMiniType | (() => z.ZodMiniType);
};

/** The rows of one area, keyed by verb. */
export type OperationTable = Record<string, OperationRow>;

type Built<T> = T extends () => infer S ? S : T;
/** A written row as readers see it: thunks replaced by the schemas they build. */
export type Resolved<R extends OperationRow> = { [K in keyof R]: K extends SchemaKey ? Built<R[K]> : R[K] };

export type Table<T extends OperationTable> = { readonly [K in keyof T & string]: Operation<Resolved<T[K]> & OperationSpec> };

/**
 * Gives every row of an area's table its id. The rows are checked against OperationRow with
 * `satisfies OperationTable` where they are written and keep their exact types, so
 * `leadOps.update.body` is the zod schema itself and hand-written commands get typed input from it.
 * A schema written as a thunk becomes a getter that builds it once, so readers never see the thunk.
 */
export function defineTable<T extends OperationTable>(area: string, rows: T): Table<T> {
  const out: Record<string, Operation> = {};
  for (const [key, spec] of Object.entries(rows)) {
    const row: Record<string, unknown> = { ...spec, id: `${area}.${key}`, area, key };
    const deprecated = deprecationOf(spec.method, spec.path);
    if (deprecated) row.deprecated = deprecated;
    for (const k of SCHEMA_KEYS) {
      const make = spec[k];
      if (typeof make !== 'function') continue;
      let built: z.ZodMiniType | undefined;
      Object.defineProperty(row, k, { enumerable: true, get: () => (built ??= make()) });
    }
    out[key] = Object.freeze(row) as unknown as Operation;
  }
  return out as Table<T>;
}

/** Rows of a table in declaration order. */
export function rowsOf(table: Record<string, Operation>): Operation[] {
  return Object.values(table);
}

type In<S> = S extends z.ZodMiniType ? z.input<S> : never;
/** Path parameters may also be given as the text a command line holds ("12"); validation makes them numbers. */
type Params<S> = { [K in keyof In<S>]: In<S>[K] | string };

/** Typed input of one operation, as a hand-written command builds it (validated by the same schemas before sending). */
export type OperationInput<O extends OperationSpec = OperationSpec> = (O['params'] extends z.ZodMiniType ? { params: Params<O['params']> } : { params?: Record<string, never> }) &
  (O['query'] extends z.ZodMiniType ? { query?: In<O['query']> } : { query?: Record<string, never> }) &
  (O['body'] extends z.ZodMiniType ? { body: In<O['body']> } : { body?: undefined });

/** Names of the {placeholders} in a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

export function isIdempotent(op: Pick<OperationSpec, 'method' | 'idempotent'>): boolean {
  return op.idempotent ?? op.method !== 'POST';
}

/** Reads change nothing; MCP offers them without --allow-writes. */
export function isRead(op: Pick<OperationSpec, 'method'>): boolean {
  return op.method === 'GET';
}
