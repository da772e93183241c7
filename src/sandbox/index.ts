// Public entry point of the sandbox: a local, stateful emulator of the CRM service.
// `crmctl sandbox start` and the tests call startSandbox().
import { areas as defaultAreas } from './handlers/index.js';
import { FaultInjector } from './faults.js';
import { DEFAULT_APP_SCOPES } from './oauth/scopes.js';
import { issueTokenPair } from './oauth/tokens.js';
import { makeSeeder } from './seed/index.js';
import { SandboxServer } from './server.js';
import { cleanupTempFiles, readStateFile, saveState } from './store/persist.js';
import { SandboxState } from './store/state.js';
import type { OAuthClient, RunningSandbox, SandboxConfig, SandboxOptions } from './types.js';

export const DEFAULT_CLIENT_ID = 'crmctl-sandbox-client';
export const DEFAULT_CLIENT_SECRET = 'crmctl-sandbox-secret-not-for-production';
export const DEFAULT_REDIRECT_URIS = ['http://127.0.0.1:8250/callback'];
/** A second registered app: its tokens are valid OAuth tokens but foreign to the API (tests). */
export const OTHER_CLIENT: OAuthClient = {
  clientId: 'crmctl-sandbox-other-client', clientSecret: 'crmctl-sandbox-other-secret', name: 'Other Sandbox App',
  redirectUris: ['http://127.0.0.1:8251/callback'], scopes: ['base', 'leads:read'],
};

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const log = opts.log ?? (() => {});
  const config: SandboxConfig = {
    budget: opts.budget ?? { limit: 100_000, windowSec: 2 },
    tokenLifetimeSec: opts.tokenLifetimeSec ?? 3600,
    conversionDelayMs: opts.conversionDelayMs ?? 300,
  };
  const primary: OAuthClient = {
    clientId: opts.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: opts.clientSecret ?? DEFAULT_CLIENT_SECRET,
    name: 'crmctl (sandbox)',
    redirectUris: opts.redirectUris ?? DEFAULT_REDIRECT_URIS,
    scopes: DEFAULT_APP_SCOPES,
  };

  const state = new SandboxState();
  state.setSeeder(makeSeeder(defaultAreas));
  if (opts.dataFile) cleanupTempFiles(opts.dataFile);
  const saved = opts.dataFile ? readStateFile(opts.dataFile) : null;
  if (saved) state.load(saved);
  else state.seed(opts.seed ?? 'demo');

  const server = new SandboxServer({
    state, config, areas: defaultAreas, clients: [primary, OTHER_CLIENT], dataFile: opts.dataFile,
    autoApprove: opts.autoApprove ?? false, faults: new FaultInjector(opts.faults), log,
  });
  if (opts.dataFile && !saved) saveState(opts.dataFile, state);

  await new Promise<void>((resolve, reject) => {
    server.http.once('error', reject);
    server.http.listen(opts.port ?? 0, '127.0.0.1', () => { server.http.off('error', reject); resolve(); });
  });
  const addr = server.http.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  server.baseUrl = `http://127.0.0.1:${port}`;
  server.restartJobs();
  log(`sandbox listening on ${server.baseUrl} (client_id ${primary.clientId})`);

  let closed = false;
  return {
    url: server.baseUrl,
    port,
    clientId: primary.clientId,
    clientSecret: primary.clientSecret,
    state,
    config,
    issueToken: (o = {}) => {
      const t = issueTokenPair(state, {
        clientId: o.clientId ?? primary.clientId, userId: o.userId ?? state.adminUserId(),
        scopes: o.scopes ?? primary.scopes, lifetimeSec: o.lifetimeSec ?? config.tokenLifetimeSec,
      });
      server.persist();
      return { access_token: t.access_token, refresh_token: t.refresh_token, expires_in: t.expires_in, scope: t.scope };
    },
    flush: () => server.persist(),
    close: async () => {
      if (closed) return;
      closed = true;
      server.stopJobs();
      server.persist();
      await new Promise<void>((resolve) => {
        server.http.close(() => resolve());
        server.http.closeAllConnections();
      });
    },
  };
}

export type {
  AreaModule, BudgetConfig, FaultConfig, Handler, HandlerContext, IssuedTokens, OAuthClient, RouteDef, RunningSandbox,
  SandboxConfig, SandboxOptions, SandboxRequest, SandboxResponse,
} from './types.js';
export { SandboxState, type SeedName, type StateJSON } from './store/state.js';
export { Collection, type Id, type Rec, type WriteOpts } from './store/collection.js';
export { EventBus, type SandboxEvent, type EventAction, type EventObject } from './store/events.js';
export type * from './store/records.js';
export { ApiError, invalid, notFound, forbidden, badRequest } from './http/errors.js';
export { ok, created } from './http/envelope.js';
export { offsetPage, cursorPage, encodeCursor, decodeCursor } from './http/paginate.js';
export { ALL_SCOPES, DEFAULT_APP_SCOPES } from './oauth/scopes.js';
export { DEAL_FIELD_KEYS, CHANNELS, USERS } from './seed/index.js';
