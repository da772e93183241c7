/** The part of @napi-rs/keyring's synchronous Entry that crmctl uses; the test double has the same. */
export interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}

export type EntryConstructor = new (service: string, account: string) => KeyringEntry;
