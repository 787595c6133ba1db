/** Formatting for bench/results.md: every section renders its figures through these. */

export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const integer = (value: number) => Math.round(value).toLocaleString('en-US');
export const fixed = (value: number, digits = 1) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const ms = (value: number) => `${fixed(value, value < 10 ? 2 : 1)} ms`;
export const us = (value: number) => `${fixed(value, value < 10 ? 1 : 0)} µs`;
export const mib = (bytes: number) => `${fixed(bytes / 1024 / 1024, 1)} MiB`;
export const ratio = (value: number) => `${fixed(value, 2)}×`;
export const dollars = (value: number) => `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;

/** "met" or "missed by …", for the target column of a table. */
export function verdict(met: boolean, missedBy: string): string {
  return met ? 'met' : `**missed** by ${missedBy}`;
}
