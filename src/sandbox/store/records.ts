// Record shapes the core areas share. They follow the service's response shapes
// (the vendor's documents) so a handler can usually return a record as-is; fields that are
// sandbox-internal live in separate collections instead (api tokens, oauth).

export interface Company {
  id: number;
  name: string;
  domain: string;
  /** Plan family decides what visible_to means (interface, visibility table). */
  plan: 'light' | 'growth' | 'premium' | 'ultimate';
  default_currency: string;
  /** Default visibility per item type; roles may override later. */
  default_visibility: Record<'deal' | 'lead' | 'org' | 'person' | 'product', number>;
}

export interface User {
  id: number;
  name: string;
  email: string;
  /** Global admin sees everything and receives all webhook events. */
  is_admin: boolean;
  active_flag: boolean;
  role_id: number;
  default_currency: string;
  locale: string;
  timezone_name: string;
  created: string;
  modified: string;
  icon_url: string | null;
  [k: string]: unknown;
}

export interface Person {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  owner_id: number;
  org_id: number | null;
  emails: { value: string; primary: boolean; label: string }[];
  phones: { value: string; primary: boolean; label: string }[];
  add_time: string;
  update_time: string;
  is_deleted: boolean;
  visible_to: number;
  label_ids: number[];
  picture_id: number | null;
  custom_fields: Record<string, unknown>;
  [k: string]: unknown;
}

export interface Organization {
  id: number;
  name: string;
  owner_id: number;
  add_time: string;
  update_time: string;
  is_deleted: boolean;
  visible_to: number;
  address: { value: string; country: string; locality: string } | null;
  label_ids: number[];
  website: string | null;
  custom_fields: Record<string, unknown>;
  [k: string]: unknown;
}

export interface Pipeline {
  id: number;
  name: string;
  order_nr: number;
  is_deal_probability_enabled: boolean;
  is_deleted: boolean;
  add_time: string;
  update_time: string;
  /** The pipeline a deal lands in when none is named. */
  is_default: boolean;
  [k: string]: unknown;
}

export interface Stage {
  id: number;
  name: string;
  pipeline_id: number;
  order_nr: number;
  deal_probability: number;
  is_deal_rot_enabled: boolean;
  days_to_rotten: number | null;
  is_deleted: boolean;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

export interface Deal {
  id: number;
  title: string;
  owner_id: number;
  creator_user_id: number;
  person_id: number | null;
  org_id: number | null;
  pipeline_id: number;
  stage_id: number;
  value: number;
  currency: string;
  add_time: string;
  update_time: string;
  stage_change_time: string | null;
  is_deleted: boolean;
  is_archived: boolean;
  status: 'open' | 'won' | 'lost' | 'deleted';
  probability: number | null;
  lost_reason: string | null;
  visible_to: number;
  close_time: string | null;
  won_time: string | null;
  lost_time: string | null;
  expected_close_date: string | null;
  label_ids: number[];
  origin: string;
  origin_id: string | null;
  channel: number | null;
  channel_id: string | null;
  source_lead_id: string | null;
  custom_fields: Record<string, unknown>;
  [k: string]: unknown;
}

export interface Lead {
  id: string;
  title: string;
  owner_id: number;
  creator_id: number;
  label_ids: string[];
  person_id: number | null;
  organization_id: number | null;
  source_name: string;
  origin: string;
  origin_id: string | null;
  channel: number | null;
  channel_id: string | null;
  source_deal_id: number | null;
  is_archived: boolean;
  archive_reason: string | null;
  was_seen: boolean;
  value: { amount: number; currency: string } | null;
  expected_close_date: string | null;
  next_activity_id: number | null;
  add_time: string;
  update_time: string;
  visible_to: string;
  cc_email: string;
  /** Deal custom fields are top-level hash keys on a lead. */
  [k: string]: unknown;
}

export interface LeadLabel {
  id: string;
  name: string;
  color: string;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

/** Product of the catalog (v2 shape). `prices` holds one entry per currency. */
export interface ProductPrice { currency: string; price: number; cost: number; direct_cost: number | null; notes: string }
export interface Product {
  id: number;
  name: string;
  code: string | null;
  description: string | null;
  unit: string | null;
  tax: number;
  category: string | null;
  is_deleted: boolean;
  is_linkable: boolean;
  visible_to: number;
  owner_id: number;
  add_time: string;
  update_time: string;
  billing_frequency: 'one-time' | 'annually' | 'semi-annually' | 'quarterly' | 'monthly' | 'weekly';
  billing_frequency_cycles: number | null;
  prices: ProductPrice[];
  custom_fields: Record<string, unknown>;
  [k: string]: unknown;
}

/** A product attached to a deal (a "deal-product"). `sum` is what the line adds to the deal. */
export interface DealProduct {
  id: number;
  deal_id: number;
  product_id: number;
  product_variation_id: number | null;
  name: string;
  order_nr: number;
  item_price: number;
  quantity: number;
  discount: number;
  discount_type: 'percentage' | 'amount';
  tax: number;
  tax_method: 'exclusive' | 'inclusive' | 'none';
  is_enabled: boolean;
  comments: string;
  currency: string;
  sum: number;
  billing_frequency: Product['billing_frequency'];
  billing_frequency_cycles: number | null;
  billing_start_date: string | null;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

/** A person taking part in a deal besides its contact person. */
export interface Participant { id: number; deal_id: number; person_id: number; add_time: string; added_by_user_id?: number; [k: string]: unknown }

/** A file attached to deals, persons, organizations, products, activities or leads (v1 shape). */
export interface FileRec {
  id: number; user_id: number; deal_id: number | null; person_id: number | null; org_id: number | null; product_id: number | null;
  file_name: string; file_type: string; file_size: number; add_time: string; update_time: string; name: string; description: string;
  comment: string | null; url: string; [k: string]: unknown;
}

export interface Note {
  id: number;
  content: string;
  user_id: number;
  last_update_user_id: number | null;
  lead_id: string | null;
  deal_id: number | null;
  person_id: number | null;
  org_id: number | null;
  project_id: number | null;
  task_id: number | null;
  add_time: string;
  update_time: string;
  active_flag: boolean;
  pinned_to_lead_flag: boolean;
  pinned_to_deal_flag: boolean;
  pinned_to_organization_flag: boolean;
  pinned_to_person_flag: boolean;
  pinned_to_project_flag: boolean;
  pinned_to_task_flag: boolean;
  [k: string]: unknown;
}

export interface Activity {
  id: number;
  subject: string;
  type: string;
  owner_id: number;
  deal_id: number | null;
  lead_id: string | null;
  person_id: number | null;
  org_id: number | null;
  due_date: string | null;
  due_time: string | null;
  done: boolean;
  add_time: string;
  update_time: string;
  is_deleted: boolean;
  [k: string]: unknown;
}

export interface ActivityType {
  id: number;
  name: string;
  key_string: string;
  icon_key: string;
  color: string | null;
  order_nr: number;
  active_flag: boolean;
  is_custom_flag: boolean;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

export interface Currency {
  id: number;
  code: string;
  name: string;
  symbol: string;
  decimal_points: number;
  active_flag: boolean;
  is_custom_flag: boolean;
  [k: string]: unknown;
}

/** Saved filter; conditions are a simplified flat list evaluated by the sandbox. */
export interface FilterCondition {
  object: string; field_id: string | null; field_code?: string | null; operator: string; value: string | null; extra_value: string | null; json_value_flag: boolean;
}
export interface Filter {
  id: number;
  name: string;
  type: 'deals' | 'leads' | 'people' | 'org' | 'products' | 'activity' | 'projects';
  user_id: number;
  active_flag: boolean;
  /** The vendor's condition tree: an AND group of groups (glue and/or) of conditions. */
  conditions: { glue: 'and'; conditions: Array<{ glue: 'and' | 'or'; conditions: FilterCondition[] }> };
  visible_to?: number;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

/** Lead-to-deal conversion job. */
export interface Conversion {
  id: string;
  lead_id: string;
  user_id: number;
  stage_id: number;
  status: 'not_started' | 'running' | 'completed' | 'failed' | 'rejected';
  deal_id: number | null;
  add_time: string;
  /** Epoch ms at which the job moves on; lets a restarted sandbox resume the job. */
  run_at: number;
  done_at: number;
  [k: string]: unknown;
}

/** Sandbox-internal: personal API token of a user (header x-api-token). */
export interface ApiToken { id: string; user_id: number; [k: string]: unknown }

/** Sandbox-internal: an issued OAuth token (access or refresh). id = the token string. */
export interface OAuthToken {
  id: string;
  kind: 'access' | 'refresh';
  client_id: string;
  user_id: number;
  scopes: string[];
  /** Epoch ms; access tokens expire, refresh tokens expire when unused for 60 days. */
  expires_at: number;
  revoked: boolean;
  /** For a rotated refresh token: it stays valid until this epoch ms (race grace period). */
  grace_until?: number | null;
  /** Refresh token that belongs to this access token / access token issued with this refresh token. */
  pair?: string;
  issued_at: number;
  /** Authorization code the token was issued for (a replayed code revokes these). */
  from_code?: string;
  [k: string]: unknown;
}

/** Sandbox-internal: an authorization code waiting to be exchanged. */
export interface AuthCode {
  id: string;
  client_id: string;
  user_id: number;
  redirect_uri: string;
  scopes: string[];
  expires_at: number;
  used: boolean;
  [k: string]: unknown;
}
