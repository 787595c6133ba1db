/**
 * What the operator tools (`npm run keys`, `npm run inventory`, `npm run events`, `npm run smoke`)
 * share in reading their command line: the options each takes, and every mistake as one line that
 * names the flag and what it takes.
 */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { DeploymentStage } from '../../lib/deployments.ts';

/** A mistake in how a tool was called; its message is the whole answer, one line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const STAGE_NAMES: readonly DeploymentStage[] = ['staging', 'prod'];

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * What every tool takes beside its own options: where it works (a deployed stage, or the local
 * store's directory) and --help, defined once so that no tool goes without one of them.
 */
const EVERY_TOOLS_OPTIONS = {
  stage: { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/**
 * node:util parseArgs with the tool's options and EVERY_TOOLS_OPTIONS, its errors (unknown
 * option, missing value) turned into one line pointing at --help.
 */
export function parseCommandLine<T extends Options>(argv: string[], options: T, tool: string) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...EVERY_TOOLS_OPTIONS, ...options } });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('.')[0] : String(error);
    throw new UsageError(`${detail}; see npm run ${tool} -- --help.`);
  }
}

/** The value of a flag that takes one of a few words: "--plan must be one of free, pro (got "gold")." */
export function oneOf<const Allowed extends readonly string[]>(flag: string, value: string | undefined, allowed: Allowed): Allowed[number] {
  const found = allowed.find((candidate) => candidate === value);
  if (found !== undefined) return found;
  const choices = allowed.join(', ');
  throw new UsageError(
    value === undefined ? `${flag} is required: one of ${choices}.` : `${flag} must be one of ${choices} (got "${value}").`,
  );
}

export function stageOf(value: string | undefined): DeploymentStage | undefined {
  return value === undefined ? undefined : oneOf('--stage', value, STAGE_NAMES);
}

/** The local store's directory: --data-dir, else DATA_DIR as npm start reads it, else .data. */
export function dataDirOf(values: { 'data-dir'?: string | undefined }): string {
  return resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data');
}

/** A whole number within bounds, from its decimal text only ("1e3", "12abc" and " 7" are refused). */
export function wholeNumber(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${text}").`);
  return value;
}

/** Runs a tool's main function: its output on stdout, any failure as one line on stderr and exit code 1 (2 for a usage mistake). */
export function runTool(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
