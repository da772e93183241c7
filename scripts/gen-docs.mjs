#!/usr/bin/env node
// Writes docs/commands/*, the generated help-topic pages, README's exit-code table and completions/* from the command tree.
// `npm run gen` runs it after a build; test/contract/generated-files.test.ts fails when they are stale.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { commandTree } = await import('../dist/program.js');
const { generateDocs, withExitCodes } = await import('../dist/docs/markdown.js');
const { SHELLS, completionScript, completionFileName } = await import('../dist/completion/generate.js');

const tree = await commandTree();
rmSync(join(root, 'docs/commands'), { recursive: true, force: true });
const docs = generateDocs(tree);
for (const [rel, text] of docs) {
  mkdirSync(dirname(join(root, 'docs', rel)), { recursive: true });
  writeFileSync(join(root, 'docs', rel), text);
}
// README's exit-code table comes from the same table as `crmctl help exit-codes` and docs/exit-codes.md.
writeFileSync(join(root, 'README.md'), withExitCodes(readFileSync(join(root, 'README.md'), 'utf8')));
mkdirSync(join(root, 'completions'), { recursive: true });
for (const shell of SHELLS) writeFileSync(join(root, 'completions', completionFileName(shell)), completionScript(shell, tree));
console.log(`wrote ${docs.size} docs pages and ${SHELLS.length} completion scripts (${readdirSync(join(root, 'docs/commands')).length} command pages)`);
