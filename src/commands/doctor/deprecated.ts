import { operationById } from '../../api/operations/index.js';
import type { Operation } from '../../api/operation.js';
import type { OperationRef, TreeNode } from '../../core/command.js';
import { deprecationNotice } from '../../core/deprecation.js';
import { VALUE_FLAG_WORDS } from '../../core/global-flags.js';

/** One crmctl command of a script that calls a v1 endpoint the vendor deprecated. */
export interface DeprecatedUse {
  /** Line of the script where the command starts (1-based). */
  line: number;
  /** The command as the script writes it (shell quoting removed). */
  command: string;
  /** METHOD path of the deprecated endpoint it calls. */
  calls: string;
  /** The v2 command line that does the job, when there is one. */
  use: string | null;
  /** The notice the command prints on stderr when it runs. */
  notice: string;
}

/** Words that may come before `crmctl` in a simple command: variable assignments and wrappers. */
const WRAPPERS = new Set(['npx', 'exec', 'command', 'time', 'env', 'sudo', 'nohup']);

/**
 * Which commands of a shell script call a deprecated v1 endpoint, and the v2 way for each. The script
 * is read as a shell would split it (quotes, backslashes, comments, continuation lines, `;` `&&` `||`
 * `|` `&` `$(` and backquotes between commands); each `crmctl ...` is resolved against the command
 * tree to the operation it calls: a command's own, the form its switch flag picks (`--v1`), the row
 * behind `crmctl api METHOD PATH` or the list behind `crmctl export RESOURCE`.
 */
export async function deprecatedUses(script: string, tree: TreeNode): Promise<DeprecatedUse[]> {
  const out: DeprecatedUse[] = [];
  for (const { line, words } of simpleCommands(script)) {
    const at = words.findIndex((w) => w === 'crmctl' || w.endsWith('/crmctl'));
    if (at < 0 || !words.slice(0, at).every((w) => WRAPPERS.has(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w))) continue;
    const argv = words.slice(at + 1);
    for (const op of await operationsOf(argv, tree)) {
      const notice = deprecationNotice(op);
      if (!notice) continue;
      out.push({ line, command: ['crmctl', ...argv].join(' '), calls: `${op.method} ${op.path}`, use: op.deprecated!.use ?? null, notice });
    }
  }
  return out;
}

/** The operations one command line calls (as far as its words tell). */
async function operationsOf(argv: string[], tree: TreeNode): Promise<OperationRef[]> {
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (VALUE_FLAG_WORDS.has(w)) i++;
    else if (!w.startsWith('-')) positional.push(w);
  }
  let node = tree;
  let used = 0;
  for (const w of positional) {
    const next = node.children.find((c) => c.path[c.path.length - 1] === w || c.aliases.includes(w));
    if (!next) break;
    node = next;
    used++;
  }
  const rest = positional.slice(used);
  const spec = node.spec;
  if (!spec) return [];
  if (node.path.join(' ') === 'api') {
    // `crmctl api [METHOD] PATH` (a value of -F/-f/-H comes after them in what scripts write).
    const [a, b] = rest;
    const given = a !== undefined && /^(GET|POST|PUT|PATCH|DELETE)$/i.test(a);
    const method = given ? a.toUpperCase() : 'GET';
    const path = given ? b : a;
    if (!path) return [];
    const { matchOperation } = await import('../../automation/route-match.js');
    const op = matchOperation(method, path);
    return op ? [op] : [];
  }
  if (node.path.join(' ') === 'export') {
    const { findExportResource } = await import('../../automation/resources.js');
    const r = rest[0] ? findExportResource(rest[0]) : undefined;
    return r ? [r.op] : [];
  }
  const ops = (spec.operations ?? []).map((ref) => operationById(ref.id) ?? (ref as Operation));
  const switched = ops.filter((op) => op.cli?.switch && argv.includes(op.cli.switch));
  return switched.length ? switched : ops.filter((op) => !op.cli?.switch);
}

/**
 * The simple commands of a shell script, each with its words (quotes and backslashes resolved) and
 * the line it starts on. Not a shell: enough to find the crmctl commands a script runs.
 */
export function simpleCommands(text: string): Array<{ line: number; words: string[] }> {
  const out: Array<{ line: number; words: string[] }> = [];
  let words: string[] = [];
  let word: string | undefined;
  let line = 1;
  let first = 1;
  /** The next word is a redirection's target (`> out.json`), not an argument. */
  let target = false;
  const add = (s: string) => {
    if (word === undefined && words.length === 0 && !target) first = line;
    word = (word ?? '') + s;
  };
  const endWord = () => {
    if (word !== undefined && !target) words.push(word);
    if (word !== undefined) target = false;
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (words.length) out.push({ line: first, words });
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      const n = text[++i];
      if (n === '\n') line++;
      else if (n !== undefined) add(n);
    } else if (c === '\n') {
      endCommand();
      line++;
    } else if (c === '#' && word === undefined) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === "'") {
      add('');
      for (i++; i < text.length && text[i] !== "'"; i++) {
        if (text[i] === '\n') line++;
        add(text[i]!);
      }
    } else if (c === '"') {
      add('');
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && /["\\$`]/.test(text[i + 1] ?? '')) i++;
        if (text[i] === '\n') line++;
        add(text[i]!);
      }
    } else if (/\s/.test(c)) {
      endWord();
    } else if (c === '>' || c === '<') {
      // A redirection: `2>` names a descriptor, `>&2` one more, `>>`/`&>` are one operator.
      if (word !== undefined && /^\d+$/.test(word)) word = undefined;
      endWord();
      while (text[i + 1] === '>' || text[i + 1] === '&') i++;
      target = true;
    } else if (c === '&' && text[i + 1] === '>') {
      endWord();
    } else if (';&|()`'.includes(c)) {
      endCommand();
    } else if (c === '$' && text[i + 1] === '(') {
      endCommand();
      i++;
    } else {
      add(c);
    }
  }
  endCommand();
  return out;
}
