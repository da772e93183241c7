import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Stack frames of an unexpected error, as source files and lines. The shipped bundle is minified;
 * its source maps (dist/cli/*.map, built from tsc's) are read here, only after a crash, so start-up
 * never pays for them. Frames that map to nothing (Node internals) are left out.
 */
export function sourceFrames(stack: string, max = 8): string[] {
  const maps = new Map<string, SourceMap | null>();
  const out: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /\(?((?:file:\/\/)?\/[^():]+\.[cm]?[jt]s):(\d+):(\d+)\)?\s*$/.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (file.includes(`${sep}node_modules${sep}`)) continue;
    const at = mapFrame(maps, file, Number(m[2]), Number(m[3]));
    if (at && !out.includes(at)) out.push(at);
    if (out.length >= max) break;
  }
  return out;
}

function mapFrame(maps: Map<string, SourceMap | null>, file: string, line: number, column: number): string | undefined {
  let map = maps.get(file);
  if (map === undefined) {
    map = null;
    const mapFile = `${file}.map`;
    if (existsSync(mapFile)) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
      } catch {
        map = null;
      }
    }
    maps.set(file, map);
  }
  if (!map) return file.endsWith('.ts') ? `${shortPath(file)}:${line}` : undefined;
  const entry = map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number };
  if (!entry?.originalSource) return undefined;
  const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : resolve(dirname(file), entry.originalSource);
  return `${shortPath(source)}:${(entry.originalLine ?? 0) + 1}`;
}

/** src/commands/x.ts rather than an absolute path (the package root is two levels above dist/cli). */
function shortPath(file: string): string {
  const i = file.lastIndexOf(`${sep}src${sep}`);
  return i >= 0 ? file.slice(i + 1) : relative(process.cwd(), file);
}
