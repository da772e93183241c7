// One collection of records (a "table"). Records keep the service's own shape;
// deletion is tracked beside the record (the service marks records deleted rather
// than removing them), so handlers can still resolve a deleted record when the
// service would (e.g. a converted lead).
import { randomUUID } from 'node:crypto';
import type { EventBus, EventObject } from './events.js';

export type Id = string | number;
export type Rec = { id: Id } & Record<string, unknown>;

export interface CollectionOptions {
  /** 'int' = auto-increment integers; 'uuid' = random UUIDs; 'given' = caller supplies the id. */
  idKind: 'int' | 'uuid' | 'given';
  /** When set, create/change/delete emit events for this object type. */
  object?: EventObject;
}

export interface CollectionJSON {
  nextId: number;
  records: Rec[];
  deleted: Id[];
}

/**
 * Options for a single write: who did it (for the event), whether to emit at all, and whether an update
 * is reported as a deletion (a record the service keeps with a deleted status, such as a project).
 */
export interface WriteOpts { userId?: number | null; silent?: boolean; as?: 'delete' }

const clone = <T>(v: T): T => structuredClone(v);

export class Collection<T extends Rec = Rec> {
  private records = new Map<string, T>();
  private deleted = new Set<string>();
  private nextId = 1;

  constructor(
    readonly name: string,
    readonly opts: CollectionOptions,
    private readonly bus: EventBus,
    private readonly onDirty: () => void,
  ) {}

  /** Keys are stringified so that "5" from a path and 5 from a body find the same record. */
  private key(id: Id): string { return String(id); }

  /** Live record, or undefined when missing or deleted. */
  get(id: Id | null | undefined): T | undefined {
    if (id === null || id === undefined) return undefined;
    const k = this.key(id);
    return this.deleted.has(k) ? undefined : this.records.get(k);
  }

  /** Record even when marked deleted. */
  getAny(id: Id): T | undefined { return this.records.get(this.key(id)); }

  isDeleted(id: Id): boolean { return this.deleted.has(this.key(id)); }

  has(id: Id | null | undefined): boolean { return this.get(id) !== undefined; }

  /** Live records in insertion (= creation) order. */
  all(): T[] {
    const out: T[] = [];
    for (const [k, r] of this.records) if (!this.deleted.has(k)) out.push(r);
    return out;
  }

  /** Every record including deleted ones. */
  allWithDeleted(): T[] { return [...this.records.values()]; }

  filter(pred: (r: T) => boolean): T[] { return this.all().filter(pred); }

  find(pred: (r: T) => boolean): T | undefined { return this.all().find(pred); }

  get size(): number { return this.records.size - this.deleted.size; }

  /** Reserve the next integer id (for records whose id must be known before insert). */
  allocateId(): Id {
    if (this.opts.idKind === 'uuid') return randomUUID();
    if (this.opts.idKind === 'int') return this.nextId++;
    throw new Error(`collection ${this.name}: ids are given by the caller`);
  }

  /** Insert a new record; assigns an id when none is given. Emits 'create'. */
  insert(rec: Omit<T, 'id'> & { id?: Id }, w: WriteOpts = {}): T {
    const id = rec.id ?? this.allocateId();
    if (typeof id === 'number' && id >= this.nextId) this.nextId = id + 1;
    const full = { ...rec, id } as T;
    this.records.set(this.key(id), full);
    this.deleted.delete(this.key(id));
    this.onDirty();
    if (this.opts.object && !w.silent) {
      this.bus.emit({ action: 'create', object: this.opts.object, id, data: clone(full), previous: null, userId: w.userId ?? null });
    }
    return full;
  }

  /**
   * Shallow-merge a patch into a record; a key whose patch value is undefined is removed.
   * Emits 'change' when something changed.
   */
  update(id: Id, patch: Partial<T>, w: WriteOpts = {}): T {
    const cur = this.getAny(id);
    if (!cur) throw new Error(`collection ${this.name}: no record ${id}`);
    const previous = clone(cur);
    Object.assign(cur, patch);
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete (cur as Record<string, unknown>)[k];
    this.onDirty();
    if (this.opts.object && !w.silent && w.as === 'delete') {
      this.bus.emit({ action: 'delete', object: this.opts.object, id, data: null, previous, userId: w.userId ?? null });
    } else if (this.opts.object && !w.silent && JSON.stringify(previous) !== JSON.stringify(cur)) {
      this.bus.emit({ action: 'change', object: this.opts.object, id, data: clone(cur), previous, userId: w.userId ?? null });
    }
    return cur;
  }

  /**
   * Mark a record deleted (kept, but invisible to get/all). `patch` lets the
   * caller set the service's own deletion flags (is_deleted, active_flag, ...). Emits 'delete'.
   */
  markDeleted(id: Id, patch: Partial<T> = {}, w: WriteOpts = {}): T | undefined {
    const cur = this.get(id);
    if (!cur) return undefined;
    const previous = clone(cur);
    Object.assign(cur, patch);
    this.deleted.add(this.key(id));
    this.onDirty();
    if (this.opts.object && !w.silent) {
      this.bus.emit({ action: 'delete', object: this.opts.object, id, data: null, previous, userId: w.userId ?? null });
    }
    return cur;
  }

  /** Remove outright (for things the service really forgets, e.g. used auth codes). No event. */
  remove(id: Id): boolean {
    const k = this.key(id);
    this.deleted.delete(k);
    const had = this.records.delete(k);
    if (had) this.onDirty();
    return had;
  }

  clear(): void {
    this.records.clear();
    this.deleted.clear();
    this.nextId = 1;
    this.onDirty();
  }

  toJSON(): CollectionJSON {
    return { nextId: this.nextId, records: [...this.records.values()], deleted: [...this.deleted] };
  }

  load(json: CollectionJSON): void {
    this.records.clear();
    this.deleted.clear();
    for (const r of json.records) this.records.set(this.key(r.id), r as T);
    for (const d of json.deleted) this.deleted.add(String(d));
    this.nextId = json.nextId;
  }
}
