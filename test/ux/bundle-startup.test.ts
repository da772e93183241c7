import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_MAIN, ensureBuilt } from './built.js';
import { loadedBy } from './loaded-modules.js';

/**
 * Start-up of the bundle users run (scripts/bundle.mjs; timed by `npm run bench`). Node's ESM loader
 * pays for every file it loads (~0.45 ms each on the 2-core machine), and a module esbuild wraps in a
 * lazy initialiser (`__esm`) is parsed twice and run through a wrapper: one stray `import` added to a
 * library's CommonJS file once wrapped the whole bundle. This holds both in place for the command the
 * benchmark times.
 */
const ENV = { CRMCTL_ACCESS_TOKEN: 't', CRMCTL_API_DOMAIN: 'http://127.0.0.1:9', CRMCTL_MAX_RETRIES: '0' };
/** esbuild's lazy initialiser as its minifier writes it: `n&&(e=n(n=0))` (the module body runs once, then is dropped). */
const LAZY_INIT = /([\w$]+)&&\(([\w$]+)=\1\(\1=0\)\)/;

describe('start-up of the bundle: few files, no lazy initialisers', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('the pattern finds esbuild\'s lazy initialiser (control)', () => {
    expect(LAZY_INIT.test('var f=(n,e,t)=>()=>{if(t)throw t[0];try{return n&&(e=n(n=0)),e}catch(r){throw t=[r],r}};')).toBe(true);
    expect(LAZY_INIT.test('var a=b&&(c=d(e=0));')).toBe(false);
  });

  it('deals list --json loads at most 10 files of the bundle, under 300 kB, none of them wrapped', async () => {
    const r = await loadedBy(BUNDLE_MAIN, ['deals', 'list', '--json'], ENV);
    // Nothing listens on port 9 of loopback: the call fails, after everything a list loads was loaded.
    expect(r.code).toBe(1);
    const files = [...new Set(r.urls.filter((u) => u.includes('/dist/cli/')))].map((u) => fileURLToPath(u));
    expect(files.length).toBeGreaterThan(3);
    expect(files.length).toBeLessThanOrEqual(10);
    const sources = files.map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    expect(sources.reduce((n, s) => n + s.text.length, 0)).toBeLessThan(300_000);
    expect(sources.filter((s) => LAZY_INIT.test(s.text)).map((s) => s.f)).toEqual([]);
  });
});
