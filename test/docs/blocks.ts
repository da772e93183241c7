// The shell blocks of README.md and docs/*.md, and the convention that keeps them true: every block is
// run by a test (test/docs/cases.ts says how) or marked as not runnable, with the reason, by an HTML
// comment on the line before its fence (invisible where the Markdown is rendered):
//
//   <!-- not run: needs a real account's OAuth app and a browser -->
//   ```sh
//   crmctl auth login --auth-url https://oauth.example.com --client-id abc123
//   ```
//
// test/docs/shell-blocks.test.ts fails on a block that is neither (docs/README.md states the rule).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The hand-written documents whose shell blocks are held to the rule (docs/commands/ is generated). */
export function documents(): string[] {
  return ['README.md', ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export interface ShellBlock {
  /** `docs/sandbox.md` */
  doc: string;
  /** Line of the opening fence (1-based), for messages. */
  line: number;
  /** The commands, without the fence and without the indentation of a block inside a list item. */
  text: string;
  /** The first line of `text`: what a case names to claim the block. */
  first: string;
  /** The reason given by `<!-- not run: REASON -->` on the line before the fence. */
  notRun?: string;
}

const FENCE = /^(\s*)```(sh|bash|shell|console|zsh)\b.*$/;
const MARKER = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/;

/** Every shell block of one document, in order. */
export function shellBlocks(doc: string): ShellBlock[] {
  const lines = readFileSync(`${ROOT}${doc}`, 'utf8').split('\n');
  const out: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(Math.min(indent, lines[j]!.length - lines[j]!.trimStart().length)));
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const marker = k >= 0 ? MARKER.exec(lines[k]!) : null;
    const text = body.join('\n');
    out.push({ doc, line: i + 1, text, first: body.find((l) => l.trim() !== '')?.trim() ?? '', ...(marker ? { notRun: marker[1]! } : {}) });
    i = j;
  }
  return out;
}
