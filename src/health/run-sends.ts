import type { Context } from '../core/context.js';
import { CliError, DailyBudgetError, PartialFailureError } from '../core/errors.js';
import { isPassing } from '../runs/passing.js';
import type { Run } from '../runs/run.js';

type Rec = Record<string, unknown>;

/**
 * The sending half of a health run (normalize, dedupe), one write at a time: each write's outcome in
 * the journal (failed with `retry` when --resume may send it again: a passing error, or an answer
 * nobody knows), a spent daily budget stops the run, and the end is the one policy of src/runs: paused
 * (resumable) when stopped or when writes may be tried again, finished otherwise.
 */
export class RunSends {
  done = 0;
  failed = 0;
  private retryable = 0;
  private spent: DailyBudgetError | undefined;

  constructor(private readonly ctx: Context, readonly run: Run) {}

  /** Sends one write; `unsettled()` says the read-back after a lost answer failed too (the outcome is unknown). */
  async send(key: string, record: number, write: () => Promise<Rec>, unsettled: () => boolean): Promise<void> {
    try {
      const outcome = await write();
      this.done++;
      await this.run.done(key, { record, ...outcome });
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      if (err instanceof DailyBudgetError) {
        this.spent ??= err;
        this.run.requestStop();
      }
      this.failed++;
      const again = unsettled() || isPassing(err);
      if (again) this.retryable++;
      await this.run.failed(key, err.message, { record, ...(again ? { retry: true } : {}) });
      this.ctx.warn(`${key}: ${err.message}`);
    }
  }

  /** A write the entry refused before anything was sent: failed for good. */
  async refused(key: string, record: number, why: string): Promise<void> {
    this.failed++;
    await this.run.failed(key, why, { record });
    this.ctx.warn(`${key}: ${why}`);
  }

  /** The run's end: `report` prints the result when the run was not stopped; `of` counts the writes planned (for the failure message). */
  async end(said: string, counts: Rec, of: number, journal: string, report: () => Promise<void>): Promise<void> {
    if (this.spent) {
      await this.run.pause(said);
      throw this.spent;
    }
    if (this.run.stopping) {
      await this.run.pause(said);
      throw this.run.stoppedError(said);
    }
    await report();
    if (this.retryable) await this.run.pause(said);
    else await this.run.finish(said, counts);
    if (this.failed) {
      throw new PartialFailureError(
        `${this.failed} of ${of} writes failed`,
        this.retryable ? `Those that failed on a passing error (budget, network, 5xx) are tried again by the same command with --resume (journal ${journal}).` : 'The service refused them; see the messages above.',
      );
    }
  }

  /** Wraps the sending: an error that leaves the run unfinished keeps its journal for --resume. */
  static async guard(run: Run, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      throw await run.stoppedBy(err);
    } finally {
      await run.close();
    }
  }
}
