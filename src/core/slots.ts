/**
 * A counted set of slots taken in arrival order: bounds the writes in flight while the work before
 * them (an import row's journal entry) runs ahead of them.
 */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  /** Resolves once a slot is this caller's; `release` gives it back. */
  async take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
