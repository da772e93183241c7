/** Time and chance as the HTTP client sees them; tests pass a fake one so no test waits for real. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** 0 <= x < 1, for backoff jitter. */
  random(): number;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  random: () => Math.random(),
};
