import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../functions/domain/errors.ts';
import { ERROR_STATUSES } from '../../../functions/http/error-statuses.ts';
import { apiRoutes } from '../../../functions/routes.ts';

/**
 * The API guide's lists that the code also holds: its table of error codes (ErrorCode and
 * error-statuses.ts) and its experimental operations (the operation registry). The guide's prose
 * says more than the code would generate, so it stays written by hand and this compares it: a
 * code or an operation added to the code and not to the guide fails here, by name.
 */

const guide = readFileSync(new URL('../../../docs/api-guide.md', import.meta.url), 'utf8');

/** The text under a `## ` heading, up to the next one. */
function section(heading: string): string {
  const start = guide.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`docs/api-guide.md has no section "## ${heading}"`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
}

/** Each row of the error-code table: its status and the codes its code column names. */
function errorCodeRows(): { status: number; codes: string[] }[] {
  return section('Error codes')
    .split('\n')
    .filter((line) => /^\| \d{3} \|/.test(line))
    .map((line) => {
      const [, status, codes] = line.split('|').map((cell) => cell.trim());
      return { status: Number(status), codes: [...codes!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!) };
    });
}

describe("docs/api-guide.md's error codes", () => {
  it('name one code a row, every ErrorCode once, none the code lacks', () => {
    const rows = errorCodeRows();

    expect(rows.filter((row) => row.codes.length !== 1)).toEqual([]);
    expect(rows.map((row) => row.codes[0]).sort()).toEqual(Object.values(ErrorCode).sort());
  });

  it('give each code the status error-statuses.ts gives it', () => {
    const rows = errorCodeRows();

    expect(Object.fromEntries(rows.map((row) => [row.codes[0], row.status]))).toEqual(ERROR_STATUSES);
  });
});

describe("docs/api-guide.md's experimental operations", () => {
  it('are every operation of the registry that is not stable', () => {
    const listed = /\*\*Experimental operations\*\* \(([^)]*)\)/.exec(section('Versioning and deprecation policy'))?.[1];

    expect(listed, 'the policy has a bullet "**Experimental operations** (`operationId`, …)"').toBeDefined();
    expect([...listed!.matchAll(/`(\w+)`/g)].map((match) => match[1]).sort()).toEqual(
      apiRoutes
        .filter((route) => route.stability !== 'stable')
        .map((route) => route.operationId)
        .sort(),
    );
  });
});

describe("docs/api-guide.md's body caps", () => {
  it("state each operation's maxBodyBytes of the registry, every operation with a body once", () => {
    const row = section('Error codes')
      .split('\n')
      .find((line) => line.startsWith('| 413 |'));
    const stated = [...(row ?? '').matchAll(/(\d+) bytes for ((?:`\w+`(?:, )?)+)/g)].flatMap(([, bytes, operations]) =>
      [...operations!.matchAll(/`(\w+)`/g)].map(([, operationId]) => [operationId, Number(bytes)] as const),
    );

    expect(Object.fromEntries(stated)).toEqual(
      Object.fromEntries(apiRoutes.flatMap((route) => ('maxBodyBytes' in route ? [[route.operationId, route.maxBodyBytes]] : []))),
    );
    expect(stated).toHaveLength(apiRoutes.filter((route) => 'body' in route).length);
  });
});
