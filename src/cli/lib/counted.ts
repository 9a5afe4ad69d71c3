/**
 * A count with its noun for the scripts' summary lines: `counted(1, 'entry', 'entries')` is "1 entry",
 * `counted(2, 'warning')` is "2 warnings" (English plural: the singular and "s" unless given).
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
