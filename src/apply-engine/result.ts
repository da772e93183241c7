/** What happened to one record, as reported to the user (apply and destroy). */
export interface Result {
  action: 'created' | 'updated' | 'replaced' | 'unchanged' | 'deleted' | 'restored' | 'kept' | 'forgotten';
  kind: string;
  name: string;
  id?: string | number;
  changes?: string[];
  note?: string;
  cost: number;
}
