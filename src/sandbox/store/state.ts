// The sandbox's whole state: named collections plus company metadata and the
// event bus. Areas get their collections by name (collection(name, opts)), so a
// new area never needs to edit this file.
import { Collection, type CollectionJSON, type CollectionOptions, type Rec } from './collection.js';
import { EventBus } from './events.js';
import type {
  ActivityType, Activity, ApiToken, AuthCode, Company, Conversion, Currency, Deal, DealProduct, FileRec, Filter,
  Lead, LeadLabel, Note, OAuthToken, Organization, Participant, Person, Pipeline, Product, Stage, User,
} from './records.js';

export interface StateJSON {
  format: 'crmctl-sandbox-state';
  version: 1;
  savedAt: string;
  company: Company;
  collections: Record<string, CollectionJSON>;
}

export type SeedName = 'demo' | 'empty';

/** Options of the core collections, so collection('deals') without opts still emits events. */
const CORE: Record<string, CollectionOptions> = {
  users: { idKind: 'int', object: 'user' },
  persons: { idKind: 'int', object: 'person' },
  organizations: { idKind: 'int', object: 'organization' },
  pipelines: { idKind: 'int', object: 'pipeline' },
  stages: { idKind: 'int', object: 'stage' },
  deals: { idKind: 'int', object: 'deal' },
  leads: { idKind: 'uuid', object: 'lead' },
  leadLabels: { idKind: 'uuid' },
  products: { idKind: 'int', object: 'product' },
  dealProducts: { idKind: 'int', object: 'deal_product' },
  dealParticipants: { idKind: 'int' },
  files: { idKind: 'int' },
  notes: { idKind: 'int', object: 'note' },
  activities: { idKind: 'int', object: 'activity' },
  activityTypes: { idKind: 'int' },
  currencies: { idKind: 'int' },
  filters: { idKind: 'int' },
  leadConversions: { idKind: 'uuid' },
  // Webhooks v2 objects of projects (2026-04-10).
  projects: { idKind: 'int', object: 'project' },
  projectTasks: { idKind: 'int', object: 'task' },
  projectBoards: { idKind: 'int', object: 'board' },
  projectPhases: { idKind: 'int', object: 'phase' },
  dealInstallments: { idKind: 'int', object: 'deal_installment' },
  apiTokens: { idKind: 'given' },
  oauthTokens: { idKind: 'given' },
  authCodes: { idKind: 'given' },
};
export type Seeder = (state: SandboxState, name: SeedName) => void;

export class SandboxState {
  readonly events = new EventBus();
  company: Company = defaultCompany();
  private cols = new Map<string, Collection>();
  /** Collection data loaded from a file before any area asked for the collection. */
  private pending = new Map<string, CollectionJSON>();
  private dirty = false;
  /** Counts every write to any collection (and resets/loads): lets handlers cache derived views. */
  writeSeq = 0;
  /**
   * How far the sandbox's clock runs ahead of the machine's (POST /__sandbox/clock). Tests and CI jobs
   * expire tokens or end budget windows by moving it instead of waiting.
   */
  clockOffsetMs = 0;

  /** The service's time: what expiries, budgets, timestamps and jobs are measured against. */
  now(): number { return Date.now() + this.clockOffsetMs; }
  private seeder: Seeder | null = null;

  /** Get (or create on first use) a collection. `opts` matters only the first time (core names have fixed options). */
  collection<T extends Rec = Rec>(name: string, opts?: CollectionOptions): Collection<T> {
    let c = this.cols.get(name);
    if (!c) {
      c = new Collection<T>(name, CORE[name] ?? opts ?? { idKind: 'int' }, this.events, () => { this.dirty = true; this.writeSeq++; }) as unknown as Collection;
      const p = this.pending.get(name);
      if (p) { c.load(p); this.pending.delete(name); }
      this.cols.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  // Core collections, typed. Names are also the keys of GET /__sandbox/state/<name>.
  get users() { return this.collection<User>('users'); }
  get persons() { return this.collection<Person>('persons'); }
  get organizations() { return this.collection<Organization>('organizations'); }
  get pipelines() { return this.collection<Pipeline>('pipelines'); }
  get stages() { return this.collection<Stage>('stages'); }
  get deals() { return this.collection<Deal>('deals'); }
  get leads() { return this.collection<Lead>('leads'); }
  get leadLabels() { return this.collection<LeadLabel>('leadLabels'); }
  get notes() { return this.collection<Note>('notes'); }
  get activities() { return this.collection<Activity>('activities'); }
  get activityTypes() { return this.collection<ActivityType>('activityTypes'); }
  get currencies() { return this.collection<Currency>('currencies'); }
  get products() { return this.collection<Product>('products'); }
  get dealProducts() { return this.collection<DealProduct>('dealProducts'); }
  get participants() { return this.collection<Participant>('dealParticipants'); }
  get files() { return this.collection<FileRec>('files'); }
  get filters() { return this.collection<Filter>('filters'); }
  get conversions() { return this.collection<Conversion>('leadConversions'); }
  get apiTokens() { return this.collection<ApiToken>('apiTokens'); }
  get oauthTokens() { return this.collection<OAuthToken>('oauthTokens'); }
  get authCodes() { return this.collection<AuthCode>('authCodes'); }

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
    this.writeSeq++;
  }

  /** Reset, then fill with a named seed. Seeding emits no events. */
  seed(name: SeedName): void {
    this.reset();
    const seeder = this.seeder;
    if (!seeder) throw new Error('no seeder installed');
    this.events.mute(() => seeder(this, name));
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
    this.writeSeq++;
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
