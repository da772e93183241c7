import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHELLS, completionFileName, completionScript } from '../../src/completion/generate.js';
import { generateDocs } from '../../src/docs/markdown.js';
import { commandTree } from '../../src/program.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (rel: string) => (existsSync(`${root}${rel}`) ? readFileSync(`${root}${rel}`, 'utf8') : '(missing)');

describe('generated docs and completions are up to date (run `npm run gen` when this fails)', () => {
  it('docs/commands and the help-topic pages match the command tree', async () => {
    const docs = generateDocs(await commandTree());
    const stale = [...docs].filter(([rel, text]) => read(`docs/${rel}`) !== text).map(([rel]) => rel);
    expect(stale).toEqual([]);
    const onDisk = readdirSync(`${root}docs/commands`).map((f) => `commands/${f}`);
    expect(onDisk.filter((f) => !docs.has(f))).toEqual([]);
  });

  it('completions/ match the command tree', async () => {
    const tree = await commandTree();
    for (const shell of SHELLS) expect(read(`completions/${completionFileName(shell)}`), shell).toBe(completionScript(shell, tree));
  });

  it('every command page has an example and names its HTTP operations', async () => {
    const docs = generateDocs(await commandTree());
    const leadsList = docs.get('commands/leads-list.md')!;
    expect(leadsList).toContain('$ crmctl leads list');
    expect(leadsList).toContain('| GET | `/api/v1/leads` | 20 | leads:read, leads:full |');
  });
});
