import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { BIN_PATH, ensureBuilt } from './built.js';

/**
 * A person at a real terminal: tmux gives `crmctl leads create` a pty, keys are typed with
 * send-keys, and the screen (with its colours) is read back with capture-pane -e -p.
 */
const haveTmux = spawnSync('tmux', ['-V']).status === 0;
if (!haveTmux) console.warn('test/ux/terminal.test.ts skipped: tmux is not installed (apt-get install -y tmux)');

describe.skipIf(!haveTmux)('leads create at a real terminal (tmux)', () => {
  let fx: SandboxFixture;
  let dir: string;
  let socket: string;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-e', '-p', '-t', 'ux');
  const plain = () => screen().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  const waitFor = async (re: RegExp, timeoutMs = 15_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const text = plain();
      if (re.test(text)) return text;
      if (Date.now() > until) throw new Error(`screen never showed ${re}:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const keys = (...k: string[]) => tmux('send-keys', '-t', 'ux', ...k);

  /** Runs a shell line in a fresh tmux session (a real pty), with the sandbox credentials in the environment. */
  const start = (line: string) => {
    spawnSync('tmux', ['-S', socket, 'kill-session', '-t', 'ux']);
    const env = Object.entries({ ...fx.env, PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, TERM: 'xterm-256color' }).map(([k, v]) => `${k}='${v}'`).join(' ');
    tmux('new-session', '-d', '-s', 'ux', '-x', '120', '-y', '40', `env -i ${env} bash --norc --noprofile -c "${line}; echo EXIT:\\$?; sleep 60"`);
  };

  beforeAll(async () => {
    ensureBuilt();
    fx = await startFixture();
    dir = mkdtempSync(join(tmpdir(), 'crmctl-tmux-'));
    socket = join(dir, 'tmux.sock');
  }, 120_000);
  afterAll(async () => {
    spawnSync('tmux', ['-S', socket, 'kill-server']);
    rmSync(dir, { recursive: true, force: true });
    await fx?.close();
  });

  it('asks for the title (refusing a blank one), person or organization, then a person from the account; prints the lead in colour', async () => {
    await fx.reset('demo');
    await fx.clearRequests();
    const persons = await fx.collection<{ id: number; name: string }>('persons');
    start(`node ${BIN_PATH} leads create`);
    await waitFor(/\? title/);
    keys('Enter');
    await waitFor(/title is required/);
    keys('-l', 'Terminal lead');
    keys('Enter');
    await waitFor(/A lead needs a person or an organization\. Which will you give\?/);
    keys('Enter'); // person (the first choice)
    await waitFor(new RegExp(persons[1]!.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    keys('Down');
    keys('Enter');
    const text = await waitFor(/EXIT:\d+/);
    expect(text).toContain('EXIT:0');
    expect(text).toContain('Terminal lead');
    // Colours: inquirer's answered-question marks and the table are painted on a terminal.
    const raw = screen();
    expect(raw).toMatch(/\u001b\[32m✔\u001b\[39m \u001b\[1mtitle:/);
    expect(raw).toMatch(/✔\u001b\[39m \u001b\[1mperson:\u001b\[0m.*\u001b\[36m[^\n]*/);
    expect(text).toContain(`person: ${persons[1]!.name}`);
    // The record is printed as a table with bold field names.
    expect(raw).toMatch(/\u001b\[1mperson_id\u001b\[0m/);
    const leads = await fx.collection<{ title: string; person_id: number }>('leads');
    expect(leads.find((l) => l.title === 'Terminal lead')).toMatchObject({ person_id: persons[1]!.id });
    const post = (await fx.requests()).filter((r) => r.method === 'POST');
    expect(post).toEqual([expect.objectContaining({ path: '/api/v1/leads', body: { title: 'Terminal lead', person_id: persons[1]!.id } })]);
    tmux('kill-session', '-t', 'ux');
  }, 60_000);

  it('the same command piped fails fast naming the flag, exit 2, nothing sent', async () => {
    await fx.clearRequests();
    start(`node ${BIN_PATH} leads create </dev/null 2>&1 | cat; echo PIPE:\\\${PIPESTATUS[0]}`);
    const text = await waitFor(/PIPE:\d+/, 10_000);
    expect(text).toContain('error: --title: is required');
    expect(text).toContain('PIPE:2');
    expect(text).not.toMatch(/\? title/);
    expect(await fx.requests()).toEqual([]);
    tmux('kill-session', '-t', 'ux');
  }, 30_000);
});
