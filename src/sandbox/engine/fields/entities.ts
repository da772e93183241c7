// What differs between the field APIs of the item types: paths, scopes, the ui_visibility members, whether
// fields can be important or required (and how), and which system fields refuse what. Everything else —
// list, get, create, update, delete, options, the v1 forms — is one implementation (routes.ts).
import type { FieldEntity } from './store.js';

export interface DialogMember { name: string; /** System fields that may use it besides custom fields. */ systemFields: readonly string[] }

export interface FieldEntityConfig {
  entity: FieldEntity;
  /** v2 collection path, e.g. /api/v2/dealFields. */
  v2: string;
  /** v1 collection path when the v1 field API exists. */
  v1?: string;
  scopes: { read: string[]; create: string[]; update: string[]; options: string[]; v1Read?: string[]; v1Write?: string[] };
  /** Boolean members of ui_visibility with their defaults for a new custom field. */
  uiFlags: Record<string, boolean>;
  /** {show, order} members of ui_visibility (order is managed by the service). */
  dialogs: readonly DialogMember[];
  /** show_in_pipelines (deal fields). */
  showInPipelines: boolean;
  important: boolean;
  /** 'simple' = {enabled}; 'staged' = {enabled, stage_ids, statuses} (deal fields). */
  required: 'none' | 'simple' | 'staged';
  description: boolean;
  /** System fields whose add_visible_flag cannot be switched off. */
  alwaysInAddDialog: readonly string[];
  /** Error of a missing field: productFields answer 410 (the vendor's documents), others 404. */
  missingStatus: 404 | 410;
  /** Status of a v1 create: 201 for productFields (the vendor's documents), 200 for the others. */
  v1CreateStatus?: 200 | 201;
}

const CONTACT = { read: ['contacts:read', 'contacts:full', 'admin', 'contact-fields:full'], create: ['admin', 'contact-fields:full'], update: ['contacts:full', 'admin', 'contact-fields:full'], options: ['contacts:full', 'admin', 'contact-fields:full'], v1Read: ['contacts:read', 'contacts:full', 'contact-fields:full', 'admin'], v1Write: ['contact-fields:full', 'admin'] };

export const FIELD_ENTITIES: Record<FieldEntity, FieldEntityConfig> = {
  deal: {
    entity: 'deal', v2: '/api/v2/dealFields', v1: '/api/v1/dealFields',
    scopes: { read: ['deals:read', 'deals:full', 'admin', 'deal-fields:full'], create: ['admin', 'deal-fields:full'], update: ['deals:full', 'admin', 'deal-fields:full'], options: ['deals:full', 'admin', 'deal-fields:full'], v1Read: ['deals:read', 'deals:full', 'deal-fields:full', 'admin'], v1Write: ['deal-fields:full', 'admin'] },
    uiFlags: { add_visible_flag: false, details_visible_flag: true, projects_detail_visible_flag: false },
    dialogs: [], showInPipelines: true, important: true, required: 'staged', description: true,
    alwaysInAddDialog: ['title', 'pipeline', 'stage_id', 'probability'], missingStatus: 404,
  },
  person: {
    entity: 'person', v2: '/api/v2/personFields', v1: '/api/v1/personFields', scopes: CONTACT,
    uiFlags: { add_visible_flag: false, details_visible_flag: true },
    dialogs: [{ name: 'show_in_add_deal_dialog', systemFields: ['name', 'phone', 'email'] }],
    showInPipelines: false, important: true, required: 'simple', description: false, alwaysInAddDialog: ['name'], missingStatus: 404,
  },
  organization: {
    entity: 'organization', v2: '/api/v2/organizationFields', v1: '/api/v1/organizationFields', scopes: CONTACT,
    uiFlags: { add_visible_flag: false, details_visible_flag: true, org_detail_visible_flag: true, person_detail_visible_flag: false, deal_detail_visible_flag: false },
    dialogs: [{ name: 'show_in_add_deal_dialog', systemFields: ['name', 'address'] }, { name: 'show_in_add_person_dialog', systemFields: ['name', 'address'] }],
    showInPipelines: false, important: true, required: 'simple', description: false, alwaysInAddDialog: ['name'], missingStatus: 404,
  },
  product: {
    entity: 'product', v2: '/api/v2/productFields', v1: '/api/v1/productFields',
    scopes: { read: ['products:read', 'products:full', 'product-fields:full'], create: ['products:full', 'product-fields:full'], update: ['products:full', 'product-fields:full'], options: ['products:full', 'product-fields:full'], v1Read: ['products:read', 'product-fields:full', 'products:full'], v1Write: ['product-fields:full', 'products:full'] },
    uiFlags: { add_visible_flag: false, details_visible_flag: true },
    dialogs: [], showInPipelines: false, important: false, required: 'none', description: false, alwaysInAddDialog: ['name'], missingStatus: 410, v1CreateStatus: 201,
  },
  project: {
    entity: 'project', v2: '/api/v2/projectFields',
    scopes: { read: ['projects:read', 'projects:full', 'project-fields:full'], create: ['project-fields:full'], update: ['project-fields:full'], options: ['project-fields:full'] },
    uiFlags: { add_visible_flag: false, details_visible_flag: true },
    dialogs: [], showInPipelines: false, important: true, required: 'simple', description: false, alwaysInAddDialog: ['title'], missingStatus: 404,
  },
};

/** ui_visibility of a new custom field. */
export function defaultUi(cfg: FieldEntityConfig): Record<string, unknown> {
  const ui: Record<string, unknown> = { ...cfg.uiFlags };
  for (const d of cfg.dialogs) ui[d.name] = { show: false, order: null };
  if (cfg.showInPipelines) ui.show_in_pipelines = { show_in_all: true, pipeline_ids: [] };
  return ui;
}

export function defaultImportant(cfg: FieldEntityConfig) {
  return cfg.important ? { enabled: false, stage_ids: [] as number[] } : undefined;
}

export function defaultRequired(cfg: FieldEntityConfig) {
  if (cfg.required === 'none') return undefined;
  return cfg.required === 'staged' ? { enabled: false, stage_ids: [] as number[], statuses: {} as Record<string, string[]> } : { enabled: false };
}
