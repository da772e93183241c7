// The sandbox's whole state: named collections plus company metadata and the
// event bus. Areas get their collections by name (collection(name, opts)), so a
// new area never needs to edit this file.
import { Collection, type CollectionJSON, type CollectionOptions, type Rec } from './collection.js';
import { EventBus } from './events.js';
import type {
  ActivityType, Activity, ApiToken, AuthCode, Company, Conversion, Currency, Deal, FieldMeta, Filter,
  Lead, LeadLabel, Note, OAuthToken, Organization, Person, Pipeline, Stage, User,
} from './records.js';

export interface StateJSON {
  format: 'crmctl-sandbox-state';
  version: 1;
  savedAt: string;
  company: Company;
  collections: Record<string, CollectionJSON>;
}

export type SeedName = 'demo' | 'empty';
export type Seeder = (state: SandboxState, name: SeedName) => void;

export class SandboxState {
  readonly events = new EventBus();
  company: Company = defaultCompany();
  private cols = new Map<string, Collection>();
  /** Collection data loaded from a file before any area asked for the collection. */
  private pending = new Map<string, CollectionJSON>();
  private dirty = false;
  private seeder: Seeder | null = null;

  /** Get (or create on first use) a collection. `opts` is needed only the first time. */
  collection<T extends Rec = Rec>(name: string, opts: CollectionOptions = { idKind: 'int' }): Collection<T> {
    let c = this.cols.get(name);
    if (!c) {
      c = new Collection<T>(name, opts, this.events, () => { this.dirty = true; }) as unknown as Collection;
      const p = this.pending.get(name);
      if (p) { c.load(p); this.pending.delete(name); }
      this.cols.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  // Core collections, typed. Names are also the keys of GET /__sandbox/state/<name>.
  get users() { return this.collection<User>('users', { idKind: 'int', object: 'user' }); }
  get persons() { return this.collection<Person>('persons', { idKind: 'int', object: 'person' }); }
  get organizations() { return this.collection<Organization>('organizations', { idKind: 'int', object: 'organization' }); }
  get pipelines() { return this.collection<Pipeline>('pipelines', { idKind: 'int', object: 'pipeline' }); }
  get stages() { return this.collection<Stage>('stages', { idKind: 'int', object: 'stage' }); }
  get deals() { return this.collection<Deal>('deals', { idKind: 'int', object: 'deal' }); }
  get leads() { return this.collection<Lead>('leads', { idKind: 'uuid', object: 'lead' }); }
  get leadLabels() { return this.collection<LeadLabel>('leadLabels', { idKind: 'uuid' }); }
  get dealFields() { return this.collection<FieldMeta>('dealFields', { idKind: 'int' }); }
  get notes() { return this.collection<Note>('notes', { idKind: 'int', object: 'note' }); }
  get activities() { return this.collection<Activity>('activities', { idKind: 'int', object: 'activity' }); }
  get activityTypes() { return this.collection<ActivityType>('activityTypes', { idKind: 'int' }); }
  get currencies() { return this.collection<Currency>('currencies', { idKind: 'int' }); }
  get filters() { return this.collection<Filter>('filters', { idKind: 'int' }); }
  get conversions() { return this.collection<Conversion>('leadConversions', { idKind: 'uuid' }); }
  get apiTokens() { return this.collection<ApiToken>('apiTokens', { idKind: 'given' }); }
  get oauthTokens() { return this.collection<OAuthToken>('oauthTokens', { idKind: 'given' }); }
  get authCodes() { return this.collection<AuthCode>('authCodes', { idKind: 'given' }); }

  /** Names of collections that exist (created or loaded). */
  collectionNames(): string[] { return [...new Set([...this.cols.keys(), ...this.pending.keys()])].sort(); }

  /** True when anything changed since the last markClean(); drives persistence. */
  isDirty(): boolean { return this.dirty; }
  markClean(): void { this.dirty = false; }
  markDirty(): void { this.dirty = true; }

  setSeeder(s: Seeder): void { this.seeder = s; }

  /** Drop every record (keeps subscriptions on the event bus). */
  reset(): void {
    for (const c of this.cols.values()) c.clear();
    this.pending.clear();
    this.company = defaultCompany();
    this.dirty = true;
  }

  /** Reset, then fill with a named seed. Seeding emits no events. */
  seed(name: SeedName): void {
    this.reset();
    if (!this.seeder) throw new Error('no seeder installed');
    this.seeder(this, name);
  }

  // ---- small cross-area helpers -------------------------------------------------

  /** The user's id of the first active global admin (top-level admin). */
  adminUserId(): number {
    return this.users.find((u) => u.is_admin && u.active_flag)?.id ?? 1;
  }

  toJSON(): StateJSON {
    const collections: Record<string, CollectionJSON> = {};
    for (const [n, p] of this.pending) collections[n] = p;
    for (const [n, c] of this.cols) collections[n] = c.toJSON();
    return { format: 'crmctl-sandbox-state', version: 1, savedAt: new Date().toISOString(), company: this.company, collections };
  }

  load(json: StateJSON): void {
    if (json.format !== 'crmctl-sandbox-state') throw new Error('not a sandbox state file');
    this.reset();
    this.company = json.company;
    for (const [n, data] of Object.entries(json.collections)) {
      const c = this.cols.get(n);
      if (c) c.load(data); else this.pending.set(n, data);
    }
    this.dirty = false;
  }
}

function defaultCompany(): Company {
  return {
    id: 1,
    name: 'Sandbox Company',
    domain: 'sandbox',
    plan: 'premium',
    default_currency: 'EUR',
    default_visibility: { deal: 3, lead: 3, org: 3, person: 3, product: 3 },
  };
}
