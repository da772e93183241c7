/** Words as a POSIX shell line a person can paste: plain words as they are, others in single quotes. */
export function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
