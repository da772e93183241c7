import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/runs/journal.js';
import { workDir } from './helpers.js';

// The journal bulk-update shares with import and export: a caller that appends again as soon as its
// previous entry is on disk (bulk-update writes the run header, then the first "sending") must not
// wait on a flush that has already ended.
describe('bulk-update journal', () => {
  it('writes an entry appended the moment the previous one resolved', async () => {
    const path = join(workDir(), 'journal.ndjson');
    const j = new Journal(path);
    await j.append({ type: 'run' });
    await j.append({ id: 1, status: 'sending' });
    await Promise.all([j.append({ id: 1, status: 'updated' }), j.append({ id: 2, status: 'sending' })]);
    await j.append({ id: 2, status: 'updated' });
    await j.close();
    expect(Journal.read(path)).toEqual([{ type: 'run' }, { id: 1, status: 'sending' }, { id: 1, status: 'updated' }, { id: 2, status: 'sending' }, { id: 2, status: 'updated' }]);
  }, 5_000);
});
