#!/usr/bin/env node
// Prints the sandbox's source lines per served operation: how much code an operation costs.
// Run after `npm run build` (it counts the routes of dist/sandbox and the lines of src/sandbox).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const { areas } = await import(join(root, 'dist/sandbox/handlers/index.js'));
const count = (dir) => readdirSync(dir).reduce((n, f) => {
  const p = join(dir, f);
  return n + (statSync(p).isDirectory() ? count(p) : f.endsWith('.ts') ? readFileSync(p, 'utf8').split('\n').length : 0);
}, 0);
const routes = areas.reduce((n, a) => n + a.routes.length, 0);
const lines = count(join(root, 'src/sandbox'));
const handlers = count(join(root, 'src/sandbox/handlers')) + count(join(root, 'src/sandbox/engine'));
console.log(`operations served: ${routes}`);
console.log(`src/sandbox lines: ${lines} (${(lines / routes).toFixed(1)} per operation)`);
console.log(`handlers + engine lines: ${handlers} (${(handlers / routes).toFixed(1)} per operation)`);
