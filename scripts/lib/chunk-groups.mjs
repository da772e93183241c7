// Fewer files at start-up. esbuild's code splitting gives every set of entry points (main, each area,
// each lazily imported module) that reaches a module its own chunk, so `crmctl deals list` loaded ~50
// files of a few hundred bytes each, and Node's ESM loader pays for every file (open, resolve, link:
// about 0.4 ms each on the 2-core machine) more than for the bytes in it.
//
// Modules that are always loaded together are put in one chunk by making them reachable from the same
// entry points: a first build (metafile only) says which entries reach which module; the second build
// adds side-effect-free `import` lines to entries so that
//  - what main loads (core/, the command tree) is reached by every entry: main loads it first anyway,
//    so no command loads more than before;
//  - the table machinery most table areas use (zod, api/schemas, api/operation, input/, the operation
//    command and the run path it imports) is reached by every entry that already loads zod: a few
//    small modules more are cheaper than a file each (`deals list --json` loads 8 files).
// Imports are added to our own modules only (see the entry loop below: a library's CommonJS entry
// would make esbuild wrap every module in a lazy initialiser).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * What every command that prints records loads (render and the helpers it imports statically: the
 * format decision, cells, secrets masking): a few small files, joined to the core chunk instead.
 */
const OUTPUT_ENTRY = 'dist/output/render.js';
/** What a table command loads once it runs (after its area): the entry, the call, rendering hooks. */
const RUN_ENTRY = 'dist/commands/execute-operation.js';
/** What every command that calls the service loads lazily (after its area): one group. */
const SERVICE_ENTRIES = ['dist/runtime/service-stack.js', 'dist/api/call.js', 'dist/http/client.js', 'dist/http/create-transport.js', 'dist/http/transport-node.js', 'dist/auth/credentials.js'];

/** Entry → modules (dist/ sources) to import at its end, from a first build's metafile. */
export function groupImports(metafile) {
  const outputs = new Map(Object.entries(metafile.outputs).filter(([k]) => !k.endsWith('.map')));
  const entries = [...outputs].filter(([, o]) => o.entryPoint).map(([k, o]) => ({ chunk: k, entry: o.entryPoint }));
  const chunkClosure = (chunk, seen = new Set()) => {
    if (seen.has(chunk)) return seen;
    seen.add(chunk);
    for (const i of outputs.get(chunk).imports) if (i.kind === 'import-statement' && outputs.has(i.path)) chunkClosure(i.path, seen);
    return seen;
  };
  /** module → the modules its static imports reach (itself included) */
  const closures = new Map();
  const closure = (m) => {
    if (closures.has(m)) return closures.get(m);
    const seen = new Set([m]);
    closures.set(m, seen);
    for (const i of metafile.inputs[m]?.imports ?? []) if (i.kind !== 'dynamic-import' && !i.external) for (const x of closure(i.path)) seen.add(x);
    return seen;
  };
  /** module → the entries whose static imports reach it */
  const reach = new Map();
  for (const { chunk, entry } of entries) {
    for (const c of chunkClosure(chunk)) {
      for (const m of Object.keys(outputs.get(c).inputs)) {
        if (!reach.has(m)) reach.set(m, new Set());
        reach.get(m).add(entry);
      }
    }
  }
  const ours = (m) => m.startsWith('dist/') && !m.startsWith('dist/sandbox/');
  const main = entries.find((e) => e.chunk.endsWith('/main.js')).entry;
  const zodCore = Object.keys(metafile.inputs).find((m) => m.endsWith('zod/v4/core/core.js'));
  const zodEntries = reach.get(zodCore) ?? new Set();
  const areas = entries.filter((e) => /^dist\/commands\/[^/]+\/index\.js$/.test(e.entry)).map((e) => e.entry);
  const loadsZod = (m) => closure(m).has(zodCore);
  const reachedBy = (m) => reach.get(m) ?? new Set();
  const mods = [...reach.keys()].filter(ours);

  const bytes = moduleBytes(metafile);
  const mainCode = closure(main);
  // Small modules a third of the areas import (define-command, the output format decision): main
  // imports them too, so they join the core chunk instead of each being a file most commands load.
  const smallEverywhere = mods.filter(
    (m) => !mainCode.has(m) && !loadsZod(m) && [...closure(m)].filter((x) => !mainCode.has(x)).reduce((n, x) => n + (bytes.get(x) ?? Infinity), 0) <= 4096 && areas.filter((a) => reachedBy(m).has(a)).length >= areas.length / 3,
  );
  // The output helpers every record-printing command loads (~7 kB): one file fewer each than 4 small ones.
  const output = metafile.inputs[OUTPUT_ENTRY] ? [...closure(OUTPUT_ENTRY)].filter((m) => ours(m) && !mainCode.has(m) && !loadsZod(m)) : [];
  const outputBytes = output.reduce((n, m) => n + (bytes.get(m) ?? Infinity), 0);
  const everywhere = [...smallEverywhere, ...(outputBytes <= 12_288 ? output.filter((m) => !smallEverywhere.includes(m)) : [])];
  const core = [...mods.filter((m) => reachedBy(m).has(main) && m !== main), ...everywhere];
  const taken = new Set(core);
  // An area's generated commands (define-area, operation-command) are reached by most table areas but by
  // fewer than half the zod entries (those count lazily imported modules too): the areas decide as well.
  const zodAreas = areas.filter((a) => zodEntries.has(a));
  const common = (m) => reachedBy(m).size >= zodEntries.size / 2 || zodAreas.filter((a) => reachedBy(m).has(a)).length >= zodAreas.length / 2;
  // Small modules two or more table areas share (table views, record field lists, follower and history
  // rows, bulk-update): a file each costs a command more (~0.45 ms) than parsing a few kB it does not
  // run (~0.05 ms a kB).
  // Not an operation table: a module of a loaded chunk runs its top-level code whether or not the
  // command uses it, and a table builds its rows when it runs.
  const sharedSmall = (m) => (bytes.get(m) ?? Infinity) <= 4096 && !buildsTable(m) && zodAreas.filter((a) => reachedBy(m).has(a)).length >= 2;
  // A module that is also an import() target of its own (link-namer) counts as loading zod: that entry
  // is given the group with it (see `to` below).
  const tables = mods.filter((m) => !taken.has(m) && [...reachedBy(m)].every((e) => zodEntries.has(e) || e === m) && (common(m) || sharedSmall(m)));
  // What a table command loads once it runs (the entry's prepare, the call, execute-operation; ~15 kB)
  // joins the table machinery: every entry that loads zod prepares or calls an operation, and one
  // chunk costs less than four files.
  const run = metafile.inputs[RUN_ENTRY] ? [...closure(RUN_ENTRY)].filter((m) => ours(m) && !taken.has(m) && !tables.includes(m)) : [];
  tables.push(...run);
  for (const m of tables) taken.add(m);
  // Output and input helpers most areas import (render, cells, sources...), without zod.
  const areaCommon = mods.filter((m) => !taken.has(m) && !loadsZod(m) && areas.filter((a) => reachedBy(m).has(a)).length >= areas.length / 2);
  for (const m of areaCommon) taken.add(m);
  // The HTTP client, transport, credentials: loaded only once a command calls the service.
  const service = [...new Set(SERVICE_ENTRIES.filter((e) => metafile.inputs[e]).flatMap((e) => [...closure(e)]))].filter(
    (m) => ours(m) && !taken.has(m) && !loadsZod(m) && !areas.some((a) => reachedBy(m).has(a)),
  );

  const groups = [
    { members: core, to: (e) => e !== main },
    { members: tables, to: (e) => zodEntries.has(e) || tables.includes(e) },
    { members: areaCommon, to: (e) => areaCommon.some((m) => reachedBy(m).has(e)) },
    { members: service, to: (e) => service.some((m) => reachedBy(m).has(e)) },
  ];
  const plan = new Map();
  if (everywhere.length) plan.set(resolve(main), everywhere.map((m) => resolve(m)));
  for (const { entry } of entries) {
    // Only our own modules get imports: an `import` added to a library's CommonJS entry (jmespath,
    // loaded lazily by --query) is a require() to esbuild, which then wraps every ES module it reaches
    // in a lazy initialiser (`__esm`): each module body compiled twice at start-up, and called through
    // a wrapper (the whole bundle was wrapped that way).
    if (!ours(entry)) continue;
    // No import circle, except inside a group: a module that reaches the entry is not imported by it,
    // unless the entry is a member of that group itself (a module also loaded lazily, such as
    // config/store.js). The group is one chunk either way; leaving the circle out would give the
    // members that reach the entry a chunk of their own (a file more for every command).
    const add = groups.flatMap((g) => (g.to(entry) ? g.members.filter((m) => !closure(m).has(entry) || g.members.includes(entry)) : []));
    if (add.length) plan.set(resolve(entry), [...(plan.get(resolve(entry)) ?? []), ...add.map((m) => resolve(m))]);
  }
  return plan;
}

/** An operation table (`export const dealOps = defineTable(...)`): its rows are built when the module runs. */
function buildsTable(m) {
  return m.startsWith('dist/api/operations/') && /^export const \w+ = \w+\(/m.test(readFileSync(m, 'utf8'));
}

/** module → bytes it adds to the output (over every chunk it lands in). */
function moduleBytes(metafile) {
  const out = new Map();
  for (const [k, o] of Object.entries(metafile.outputs)) {
    if (k.endsWith('.map')) continue;
    for (const [m, v] of Object.entries(o.inputs)) out.set(m, (out.get(m) ?? 0) + v.bytesInOutput);
  }
  return out;
}

/** esbuild plugin: appends the planned imports to each entry's source (after its code, so lines keep their source-map positions). */
export function groupChunks(plan) {
  return {
    name: 'crmctl-chunk-groups',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const add = plan.get(args.path);
        if (!add) return undefined;
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(args.path, 'utf8');
        return { contents: `${text}\n${add.map((p) => `import ${JSON.stringify(p)};`).join('\n')}\n`, loader: 'js' };
      });
    },
  };
}
