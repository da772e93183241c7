// Method + path-template matching. Only the paths the interface lists are
// registered, plus the /v1 <-> /api/v1 alias the service accepts for v1
// (the vendor's documents); v2 exists only as /api/v2.
import type { RouteDef } from '../types.js';

interface Compiled {
  def: RouteDef;
  template: string;
  segments: string[];
  /** Static segments score 1, params 0: "/leads/archived" beats "/leads/{id}". */
  score: number[];
}

export interface Match { def: RouteDef; template: string; params: Record<string, string> }

/** The path forms a listed v1 path is reachable under. */
export function pathForms(path: string): string[] {
  if (path.startsWith('/api/v1/')) return [path, path.slice(4)];
  if (path.startsWith('/v1/')) return [path, `/api${path}`];
  return [path];
}

export class Router {
  private routes: Compiled[] = [];

  add(def: RouteDef): void {
    for (const template of pathForms(def.path)) {
      const segments = template.split('/').filter(Boolean);
      const dup = this.routes.find((r) => r.def.method === def.method && r.template === template);
      if (dup) throw new Error(`duplicate sandbox route ${def.method} ${template}`);
      this.routes.push({ def, template, segments, score: segments.map((s) => (s.startsWith('{') ? 0 : 1)) });
    }
  }

  all(): RouteDef[] { return [...new Set(this.routes.map((r) => r.def))]; }

  match(method: string, path: string): Match | null {
    const parts = path.split('/').filter(Boolean);
    let best: { c: Compiled; params: Record<string, string> } | null = null;
    for (const c of this.routes) {
      if (c.def.method !== method || c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let okay = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i]!;
        const part = parts[i]!;
        if (seg.startsWith('{')) {
          try { params[seg.slice(1, -1)] = decodeURIComponent(part); } catch { okay = false; break; }
        } else if (seg !== part) { okay = false; break; }
      }
      if (!okay) continue;
      if (!best || better(c.score, best.c.score)) best = { c, params };
    }
    return best ? { def: best.c.def, template: best.c.template, params: best.params } : null;
  }
}

function better(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}
