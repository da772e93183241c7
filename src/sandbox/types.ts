// Public types of the sandbox: options, the running handle, and the contract
// between the server and the per-area handler modules.
import type { IncomingHttpHeaders } from 'node:http';
import type { Query } from './http/query.js';
import type { SandboxState, SeedName } from './store/state.js';
import type { User } from './store/records.js';

export interface FaultConfig {
  /** Share (0..1) of API requests answered with 502/503/504. */
  rate5xx?: number;
  /** Share of API requests answered with 429 + Retry-After: 1 (on top of the real budget). */
  rate429?: number;
  /** Share of API requests whose connection is reset without a response. */
  rateReset?: number;
  /** Share (0..1) of those resets that happen after the handler committed its write. */
  resetAfterCommitShare?: number;
  /** Extra latency per API request: fixed ms, or a [min,max] range. */
  latencyMs?: number | [number, number];
  /** PRNG seed so fault sequences are reproducible. */
  seed?: number;
}

/**
 * The burst window (`limit` cost units per `windowSec`) and the daily token budget (`dailyLimit` cost
 * units per UTC day; default 10,000,000, more than any test spends).
 */
export interface BudgetConfig { limit: number; windowSec: number; dailyLimit?: number }

/** Settings that can change while running (PUT /__sandbox/config). */
export interface SandboxConfig {
  budget: BudgetConfig;
  tokenLifetimeSec: number;
  conversionDelayMs: number;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
}

export interface SandboxOptions {
  /** 0 (default) picks a free port. The host is always 127.0.0.1. */
  port?: number;
  /** Persist state as JSON here (atomic writes); loaded on start when it exists. */
  dataFile?: string;
  /** Seed used when there is no data file to load. Default 'demo'. */
  seed?: SeedName;
  /** The consent page allows at once (as the admin user). */
  autoApprove?: boolean;
  /** Access token lifetime in seconds. Default 3600. */
  tokenLifetimeSec?: number;
  /** Cost units per window and per day. Default { limit: 100000, windowSec: 2 } and a daily limit of 10,000,000. */
  budget?: BudgetConfig;
  faults?: FaultConfig;
  clientId?: string;
  clientSecret?: string;
  /** Registered OAuth callbacks. Default ['http://127.0.0.1:8250/callback']. */
  redirectUris?: string[];
  /** How long a lead-to-deal conversion takes. Default 300 ms. */
  conversionDelayMs?: number;
  log?: (line: string) => void;
}

export interface IssuedTokens { access_token: string; refresh_token: string; expires_in: number; scope: string }

export interface RunningSandbox {
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  state: SandboxState;
  config: SandboxConfig;
  /** Issue a token pair directly (tests). Defaults: admin user, all app scopes, configured lifetime. */
  issueToken(o?: { userId?: number; scopes?: string[]; lifetimeSec?: number; clientId?: string }): IssuedTokens;
  /** Write state to the data file now (no-op without one). */
  flush(): void;
  close(): Promise<void>;
}

// ---- handler contract -----------------------------------------------------------

export interface SandboxRequest {
  method: string;
  /** Path as requested, without query. */
  path: string;
  /** Route template that matched, e.g. /api/v1/leads/{id}. */
  route: string;
  params: Record<string, string>;
  query: Query;
  /** Parsed JSON or form body; undefined when the request had none. */
  body: unknown;
  headers: IncomingHttpHeaders;
  user: User;
  userId: number;
  /** Scopes of the OAuth token; null for API-token requests (a user's API token has full access). */
  scopes: string[] | null;
  requestId: string;
}

export interface SandboxResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  state: SandboxState;
  config: SandboxConfig;
  /** Base URL of the sandbox, e.g. http://127.0.0.1:4321. */
  baseUrl: string;
  now(): Date;
  /** Run fn later (async jobs). Timers are cleared on close; state is persisted after fn. */
  schedule(fn: () => void, delayMs: number): void;
  log(line: string): void;
}

export type Handler = (req: SandboxRequest, ctx: HandlerContext) => SandboxResponse | Promise<SandboxResponse>;

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path exactly as the interface lists it: /api/v1/..., /api/v2/... or /v1/... (v1 gets the other form as alias). */
  path: string;
  /** Cost units charged against the budget. */
  cost: number;
  /** Any one of these OAuth scopes allows the call. */
  scopes: string[];
  handler: Handler;
  /** Body encoding the route accepts; default 'json' (v1 routes also accept form bodies). */
  body?: 'json' | 'form' | 'json-or-form' | 'multipart';
}

/** One area of the service (leads, roles, ...). Listed in handlers/index.ts. */
export interface AreaModule {
  name: string;
  routes: RouteDef[];
  /** Add this area's seed data after the core seed ran. */
  seed?: (state: SandboxState, name: SeedName) => void;
  /** Called once the server listens and whenever state was reloaded/reset (e.g. resume async jobs). */
  onStart?: (ctx: HandlerContext) => void;
}
