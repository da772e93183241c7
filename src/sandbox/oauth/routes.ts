// OAuth pages and token endpoint (filled in by step 2).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxServer } from '../server.js';
import { send } from '../server.js';

export async function handleOAuth(_s: SandboxServer, _req: IncomingMessage, res: ServerResponse, _url: URL): Promise<void> {
  send(res, 404, { success: false, error: 'Unknown method .', error_info: 'Please check developers.pipedrive.com', data: null, additional_data: null });
}
