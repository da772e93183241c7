// Record fields that several areas answer with (known fields, for --fields checks before anything is sent).

/** Entries of a field-value changelog (deals, organizations, persons). */
export const CHANGELOG_FIELDS = [
  'field_key', 'old_value', 'new_value', 'actor_user_id', 'time', 'change_source', 'change_source_user_agent',
  'is_bulk_update_flag',
];
/** A read that answers bare user ids: each is shown as a record `{ user_id }`. */
export const USER_IDS = { columns: ['user_id'], fields: ['user_id'], wrapValues: 'user_id' };
/** Entries of an updates flow, and of a mail-messages list. */
export const FLOW_FIELDS = ['object', 'timestamp', 'data'];
/** Entries of a followers changelog. */
export const FOLLOWER_CHANGELOG_FIELDS = ['action', 'actor_user_id', 'follower_user_id', 'time'];
/** Fields of the files attached to a deal or an organization (v1). */
export const ITEM_FILE_FIELDS = [
  'id', 'user_id', 'deal_id', 'person_id', 'org_id', 'product_id', 'activity_id', 'lead_id', 'add_time', 'update_time',
  'file_name', 'file_size', 'active_flag', 'inline_flag', 'remote_location', 'remote_id', 'cid', 's3_bucket', 'mail_message_id',
  'mail_template_id', 'deal_name', 'person_name', 'org_name', 'product_name', 'lead_name', 'url', 'name', 'description',
];
/** Fields of a deal in the v1 form (a duplicate, the deals of a product). */
export const V1_DEAL_FIELDS = [
  'id', 'creator_user_id', 'user_id', 'person_id', 'org_id', 'stage_id', 'title', 'value', 'currency', 'add_time', 'update_time',
  'stage_change_time', 'active', 'deleted', 'is_archived', 'status', 'probability', 'next_activity_date', 'next_activity_time',
  'next_activity_id', 'last_activity_id', 'last_activity_date', 'lost_reason', 'visible_to', 'close_time', 'pipeline_id',
  'won_time', 'first_won_time', 'lost_time', 'products_count', 'files_count', 'notes_count', 'followers_count',
  'email_messages_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'participants_count',
  'expected_close_date', 'last_incoming_mail_time', 'last_outgoing_mail_time', 'label', 'stage_order_nr', 'person_name',
  'org_name', 'next_activity_subject', 'next_activity_type', 'next_activity_duration', 'next_activity_note', 'formatted_value',
  'weighted_value', 'formatted_weighted_value', 'weighted_value_currency', 'rotten_time', 'owner_name', 'cc_email', 'org_hidden',
  'person_hidden', 'origin', 'origin_id', 'channel', 'channel_id', 'arr', 'mrr', 'acv', 'arr_currency', 'mrr_currency',
  'acv_currency',
];
