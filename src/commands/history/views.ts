/** The kinds `crmctl history` reads and the columns it prints (the area's index loads this for --help and --fields). */
export const HISTORY_KINDS = ['deals', 'persons', 'organizations'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export const HISTORY_COLUMNS = ['time', 'field', 'old_value', 'new_value', 'user_id', 'made_by'];
export const HISTORY_FIELDS = ['time', 'field', 'old_value', 'new_value', 'user_id', 'by', 'door', 'run', 'change_source', 'made_by'];

/** The noun of one record of a kind, for messages. */
export const NOUN: Record<HistoryKind, string> = { deals: 'deal', persons: 'person', organizations: 'organization' };
