/** Where requests go and how they are authorised; implemented by src/auth (profiles, env tokens). */
export interface CredentialSource {
  /** Base URL (the token response's api domain) and auth headers; refreshes first when the token is near expiry. */
  get(): Promise<{ baseUrl: string; headers: Record<string, string>; scopes?: string[] }>;
  /** Called once after a 401. True when fresh credentials are available for one more try. */
  refreshAfter401(): Promise<boolean>;
  /** Secrets that must never be printed (tokens, client secret), for the last-line redaction of messages. */
  secrets(): string[];
  /** What to tell the user when the service still refuses the credentials (e.g. the login command for this profile). */
  loginHint?(): string;
}
