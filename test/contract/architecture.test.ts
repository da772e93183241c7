// The layers as docs/architecture.md states them, checked on the import statements of src/ (static,
// `import type`, `export ... from` and `import()` alike: a lazy import is still a dependency).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(ROOT, path)).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every file of src/ with the src/ files it imports (relative specifiers resolved, .js → .ts). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles('src')) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(ROOT, resolve(ROOT, dirname(file), spec.replace(/\.js$/, '.ts'))).split('\\').join('/'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import circles: strongly connected components of more than one file (or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`));


describe('layers of src/', () => {
  it('the graph is read (sanity: the entry point and its program are in it)', () => {
    expect(graph.get('src/main.ts')).toContain('src/program.ts');
    expect(graph.get('src/program.ts')).toContain('src/commands/areas.ts');
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('no import circles, lazy imports and type imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  // A folder is a room with one job; rooms import each other in one direction, so a folder's place in
  // the layers of docs/architecture.md is real (input, api, names and the entry once imported each other).
  it('no import circles between the folders of src/ (a top-level file counts as its own room)', () => {
    const room = (file: string) => file.split('/').slice(0, file.split('/').length > 2 ? 2 : 3).join('/');
    const rooms = new Map<string, string[]>();
    for (const [from, tos] of graph) {
      const targets = rooms.get(room(from)) ?? [];
      for (const to of tos) if (graph.has(to) && room(to) !== room(from) && !targets.includes(room(to))) targets.push(room(to));
      rooms.set(room(from), targets);
    }
    expect(rooms.get('src/entry')).toEqual(expect.arrayContaining(['src/api', 'src/input', 'src/names']));
    expect(circles(rooms)).toEqual([]);
  });

  it('src/core/ imports nothing above it, type imports included', () => {
    const upward = edges.filter((e) => e.startsWith('src/core/') && !e.split(' -> ')[1]!.startsWith('src/core/'));
    expect(upward).toEqual([]);
  });

  it('the sandbox imports nothing from the CLI', () => {
    expect(edges.filter((e) => e.startsWith('src/sandbox/') && !e.split(' -> ')[1]!.startsWith('src/sandbox/'))).toEqual([]);
  });

  it('the sandbox engine imports nothing from the area handlers built on it', () => {
    expect(edges.filter((e) => e.startsWith('src/sandbox/engine/') && e.split(' -> ')[1]!.startsWith('src/sandbox/handlers/'))).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

  it('every path it names exists (backticked, and the first column of the layout block)', () => {
    const layout = /^```\n([\s\S]*?)^```/m.exec(text)![1]!.split('\n').map((l) => l.split(/\s+/)[0]!).filter(Boolean);
    const ticked = [...text.matchAll(/`((?:src|scripts|test|bin|docs)\/[^`\s]*)`/g)].map((m) => m[1]!);
    const named = [...new Set([...layout, ...ticked])];
    expect(named.length).toBeGreaterThan(20);
    // `src/commands/<area>/` and `src/api/operations/*.ts` name a folder of such files: the folder must exist.
    const missing = named.filter((p) => !existsSync(join(ROOT, p.split(/[<*]/)[0]!)));
    expect(missing).toEqual([]);
  });

  it('names every folder of src/ in its layout block', () => {
    const layout = /^```\n([\s\S]*?)^```/m.exec(text)![1]!;
    const folders = readdirSync(join(ROOT, 'src')).filter((d) => statSync(join(ROOT, 'src', d)).isDirectory());
    expect(folders.filter((d) => !layout.includes(`src/${d}/`))).toEqual([]);
  });
});
