/**
 * The run policy in the words every resumable command's --help uses (import, export, bulk-update), so
 * the commands cannot drift from each other or from docs/reliability.md ("Runs"). Text only: command
 * modules load it with their area.
 */
export const RUN_POLICY_HELP = [
  'Runs: a journal belongs to one account (API origin, company, user) and one input; it is never continued',
  'against another account or a changed input (exit 2 naming both). --resume with nothing to resume: exit 2',
  'naming where it looked. An unfinished run without --resume: exit 2 (--resume, or --new-run). A finished run',
  'run again: nothing sent, exit 0 ("already done at …"). --new-run starts a new run and keeps the old one\'s',
  'record. Ctrl-C or SIGTERM: stops after the writes in flight, keeps the journal, says how to continue.',
];

export const NEW_RUN_FLAG = 'start a new run even though the journal holds one (finished or not); the old run\'s journal is kept under the config dir';
