/**
 * What the operator CLI hands back to the shell (docs/cli.md): its exit codes, the error that
 * carries one, and a command's result as text for people or as one JSON line with `--json`.
 */

/** The documented exit codes; scripts branch on them. */
export const EXIT = {
  ok: 0,
  /** anything unexpected (a database error in the middle of a command) */
  error: 1,
  /** unknown command or option, missing or invalid argument */
  usage: 2,
  /** the organization or job the arguments name does not exist */
  notFound: 3,
  /** the database settings are invalid or the database cannot be reached */
  unavailable: 4,
  /** `jobs watch`: the job failed or was withdrawn */
  jobFailed: 5,
  /** `jobs retry`, `jobs cancel`: the job is not in a state the command applies to */
  conflict: 6,
  /** `jobs watch`: several jobs are about the id given; the message lists them */
  ambiguous: 7,
} as const;

export type ExitName = keyof typeof EXIT;

export class CliError extends Error {
  constructor(
    readonly exit: ExitName,
    message: string,
  ) {
    super(message);
  }
}

/** Key and value per line, the values aligned, for a flat result. */
export function fieldsText(fields: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(fields).map((k) => k.length));
  return Object.entries(fields)
    .map(([k, v]) => `${k.padEnd(width)}  ${v === null || v === undefined ? '-' : String(v)}`)
    .join('\n');
}

/** A table with a header row, columns aligned on their widest cell. */
export function tableText(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '))
    .join('\n');
}

export function writeResult(result: unknown, text: string, json: boolean): void {
  process.stdout.write(`${json ? JSON.stringify(result) : text}\n`);
}

/** On stderr: `{"error":{"exit","code","message"}}` with `--json`, else `error: message`. */
export function writeError(exit: ExitName, message: string, json: boolean): void {
  process.stderr.write(
    json ? `${JSON.stringify({ error: { exit: EXIT[exit], code: exit, message } })}\n` : `error: ${message}\n`,
  );
}
