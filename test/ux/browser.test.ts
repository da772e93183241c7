import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { AUTHORIZE_URL, liveCli, startAuthFixture, type AuthFixture } from '../auth/helpers.js';
import { ensureBuilt } from './built.js';

/**
 * The login flow with a real browser: Debian's Chromium, driven by playwright-core, clicks the
 * sandbox's consent page (not auto-approve) for a real `crmctl auth login --no-browser` process.
 */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`test/ux/browser.test.ts skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!haveChromium)(`auth login in a real browser (${CHROMIUM})`, () => {
  let fx: AuthFixture | undefined;
  let profileDir: string | undefined;
  let closeBrowser: (() => Promise<void>) | undefined;

  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await closeBrowser?.();
    closeBrowser = undefined;
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    await fx?.close();
    fx = undefined;
  });

  /** Starts the login, opens its URL in a fresh Chromium profile and returns the page at the consent screen. */
  async function consentInBrowser() {
    fx = await startAuthFixture();
    const cli = liveCli(
      ['auth', 'login', '--no-browser', '--profile', 'browser', '--auth-url', fx.sandbox.url, '--client-id', fx.sandbox.clientId, '--client-secret-stdin', '--callback-port', String(fx.callbackPort), '--timeout', '30'],
      fx.env,
    );
    cli.write(`${fx.sandbox.clientSecret}\n`);
    const [, url] = await cli.waitFor(AUTHORIZE_URL);
    const { chromium } = await import('playwright-core');
    profileDir = mkdtempSync(join(tmpdir(), 'crmctl-chromium-'));
    const context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: ARGS });
    closeBrowser = () => context.close();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url!);
    await page.waitForSelector('#allow');
    return { cli, page, fx };
  }

  it('Allow: the CLI exits 0, the browser says so, and lead-labels list works with the new profile', async () => {
    const { cli, page, fx } = await consentInBrowser();
    expect(await page.textContent('#app-name')).toBeTruthy();
    expect(await page.locator('#scopes li').count()).toBeGreaterThan(0);
    await Promise.all([page.waitForURL(/127\.0\.0\.1:\d+\/callback\?/), page.click('#allow')]);
    expect(await page.textContent('body')).toContain('You can close this tab');
    cli.endInput();
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Logged in to profile browser as '); // one status line on stderr, as gh prints it piped too
    const list = await runCli(['lead-labels', 'list', '--json', '--profile', 'browser'], { env: fx.env });
    expect(list.code, list.stderr).toBe(0);
    const labels = JSON.parse(list.stdout) as Array<{ name: string }>;
    const stored = await fx.ctl<Array<{ name: string }>>('GET', 'state/leadLabels');
    expect(labels.map((l) => l.name)).toEqual(stored.map((l) => l.name));
  }, 60_000);

  it('Cancel: the CLI exits 4 saying the consent was cancelled, and no profile is logged in', async () => {
    const { cli, page, fx } = await consentInBrowser();
    await Promise.all([page.waitForURL(/127\.0\.0\.1:\d+\/callback\?/), page.click('#cancel')]);
    expect(await page.textContent('body')).toContain('Login cancelled');
    cli.endInput();
    const r = await cli.done;
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: Login failed: you cancelled the consent (access_denied).');
    expect(r.stderr).toContain('hint: Run `crmctl auth login` again and allow the app.');
    const list = await runCli(['lead-labels', 'list', '--profile', 'browser'], { env: fx.env });
    expect(list.code).toBe(4);
    expect((await fx.requests()).filter((q) => q.path.startsWith('/api/'))).toEqual([]);
  }, 60_000);
});
