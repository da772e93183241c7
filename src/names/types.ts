// The shape of one field as the names module keeps it (in memory and in the cache file).

export interface FieldOption {
  id: number | string;
  label: string;
}

/** One field of an item type as the names module uses it (system and custom fields alike). */
export interface FieldInfo {
  /** The record key: a 40-hex hash for custom fields, the member name for system fields. */
  key: string;
  /** The name the web app shows ("Lead score"). */
  name: string;
  /** The service's field type (varchar, double, monetary, enum, set, date, user, org, people, ...). */
  type: string;
  custom: boolean;
  options: FieldOption[];
}
