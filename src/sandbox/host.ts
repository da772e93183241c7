// What the control and OAuth routes use of the running server. server.ts implements it and imports
// those routes; they import this instead of the server, so the server and its routes form no circle.
import type { Budget } from './budget.js';
import type { FaultInjector } from './faults.js';
import type { Router } from './http/router.js';
import type { RequestLog } from './request-log.js';
import type { SandboxState } from './store/state.js';
import type { AreaModule, OAuthClient, SandboxConfig } from './types.js';

export interface ServerDeps {
  state: SandboxState;
  config: SandboxConfig;
  areas: AreaModule[];
  clients: OAuthClient[];
  dataFile?: string;
  autoApprove: boolean;
  faults: FaultInjector;
  log: (line: string) => void;
}

export interface SandboxHost {
  readonly deps: ServerDeps;
  readonly state: SandboxState;
  readonly baseUrl: string;
  readonly budget: Budget;
  readonly requests: RequestLog;
  readonly router: Router;
  readonly primaryClient: OAuthClient;
  /** Starts the background jobs again (after a reset replaced the state). */
  restartJobs(): void;
}
