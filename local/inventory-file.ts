/**
 * The inventory file the operators' tool imports and exports: a JSON array of entries as GET
 * /v1/inventory answers them (InventoryItem), with every petId digit kept, each with the pet's
 * low-stock threshold where one is set (`lowStockThreshold`, optional), so a store sets its
 * thresholds in bulk. What an import writes is each entry's count (InventoryCount) and threshold:
 * `reserved` and `available`, which an export carries, may be present and are checked but not
 * imported, since holds are made by reservations only.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { byPetId } from '../functions/domain/inventory-service.ts';
import { HELD_FIELDS, INVENTORY_ITEM_FIELD_KINDS, INVENTORY_ITEM_FIELDS } from '../functions/domain/inventory-item-fields.ts';
import { type InventoryCount, InventoryItem, LowStockThresholdUpdate } from '../functions/domain/schemas.ts';
import { toJson } from '../functions/int64-json.ts';
import { describePath, type JsonSyntaxLocation, parseStrictJson, shortened, StrictJsonError } from '../functions/http/strict-json.ts';

/** Lines of problems shown at most: a file of a million bad entries does not flood the terminal. */
const MAX_PROBLEM_LINES = 20;

/** A file refused whole: one line per bad entry (the first few of many), and nothing written. */
export class InventoryFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    const shown = problems.slice(0, MAX_PROBLEM_LINES);
    const more = problems.length - shown.length;
    super(
      [
        ...shown,
        ...(more > 0 ? [`… and ${more} more`] : []),
        `${file}: ${problems.length} bad ${problems.length === 1 ? 'entry' : 'entries'}; nothing was written.`,
      ].join('\n'),
    );
    this.name = 'InventoryFileError';
  }
}

/** A file that cannot be used at all (missing, not JSON, not an array): one line that names it. */
export class UnreadableInventoryFileError extends Error {
  override name = 'UnreadableInventoryFileError';
}

/** The optional field beside the counted ones: the pet's low-stock threshold, as PUT /v1/inventory/{petId}/low-stock-threshold takes it. */
const THRESHOLD_FIELD = 'lowStockThreshold' as const;

/** An entry's shape as the messages show it: `{"petId", "quantity", "status"}`. */
export const ENTRY_SHAPE = `{${INVENTORY_ITEM_FIELDS.map((field) => JSON.stringify(field)).join(', ')}}`;

/**
 * An entry of the file: a count, with what reservations held of it when it was exported or
 * without, and the pet's threshold where the file sets one.
 */
const FileEntry = InventoryItem.partial({ reserved: true, available: true }).extend({
  [THRESHOLD_FIELD]: LowStockThresholdUpdate.shape.threshold.optional(),
});
export type InventoryFileEntry = z.infer<typeof FileEntry>;

/** What an import takes from an entry: its count and its threshold. */
export type ImportedEntry = InventoryCount & Pick<InventoryFileEntry, typeof THRESHOLD_FIELD>;

/** Every field an entry may carry, in the order the API answers them, the threshold last. */
const FILE_FIELDS = [...INVENTORY_ITEM_FIELDS, ...HELD_FIELDS, THRESHOLD_FIELD] as const;

/** Fields read from their source text, so an int64 keeps every digit. */
const EXACT_FIELDS = INVENTORY_ITEM_FIELDS.filter((field) => INVENTORY_ITEM_FIELD_KINDS[field] === 'int64');

/**
 * Each field's rule in the contract's words, read from its schema: an integer's range or an
 * enum's values. A field of another kind is named with the validator's own message.
 */
const FIELD_RULES: Partial<Record<string, string>> = Object.fromEntries(
  FILE_FIELDS.flatMap((field) => {
    const schema = field === THRESHOLD_FIELD ? FileEntry.shape[field].unwrap() : InventoryItem.shape[field];
    if (schema.type === 'enum') return [[field, `${field} must be one of ${schema.options.join(', ')}`]];
    if (schema.type === 'bigint' || (schema.type === 'number' && schema.isInt))
      return [[field, `${field} must be an integer from ${schema.minValue} to ${schema.maxValue}`]];
    return [];
  }),
);

function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'bigint') return `got ${shortened(String(value))}`;
  return `got ${shortened(JSON.stringify(value) ?? String(value))}`;
}

/** What is wrong with one entry, each field once, in the contract's words rather than the validator's. */
function entryProblems(entry: unknown): string[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [`must be an object ${ENTRY_SHAPE}`];
  const parsed = FileEntry.safeParse(entry);
  if (parsed.success) return [];
  const problems = new Set<string>();
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problems.add(`unknown field "${key}"`);
    else {
      const field = String(issue.path[0]);
      problems.add(`${FIELD_RULES[field] ?? `${field}: ${issue.message}`} (${shown((entry as Record<string, unknown>)[field])})`);
    }
  }
  return [...problems];
}

/** Where the file stops being JSON, in one line: its text (which JSON.parse's message may quote, line breaks and all) is not shown. */
function whereInvalid({ line, column, found }: JsonSyntaxLocation): string {
  return found === undefined
    ? `the text ends at line ${line}, column ${column}, before the JSON is complete.`
    : `unexpected ${JSON.stringify(found)} at line ${line}, column ${column}.`;
}

/** The strict reader's problems, one line per entry: `entry 2: quantity 1.0 is not written as an integer …`. */
function strictProblems(file: string, error: StrictJsonError): never {
  const [first] = error.problems;
  if (first?.kind === 'too deep')
    throw new UnreadableInventoryFileError(`${file} ${first.message}: an inventory file is an array of flat objects.`);
  if (first?.location) throw new UnreadableInventoryFileError(`${file} is not valid JSON: ${whereInvalid(first.location)}`);
  if (first && (first.kind === 'syntax' || typeof first.path[0] !== 'number'))
    throw new UnreadableInventoryFileError(`${file} ${first.path.length > 0 ? `${describePath(first.path)} ` : ''}${first.message}`);
  const byEntry = new Map<number, string[]>();
  for (const { path, message } of error.problems) {
    const entry = Number(path[0]) + 1;
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), `${path.length > 1 ? `${describePath(path.slice(1))} ` : ''}${message}`]);
  }
  throw new InventoryFileError(
    file,
    [...byEntry].map(([entry, problems]) => `entry ${entry}: ${problems.join('; ')}`),
  );
}

/**
 * Checks the whole file before anything is written: strict JSON (see http/strict-json.ts), an
 * array, every entry a valid entry of the file (a count, what reservations held of it, its
 * threshold), no petId twice. petIds are read from their source text, so ids above 2^53 keep
 * every digit.
 */
export function parseInventoryFile(file: string, text: string): ImportedEntry[] {
  let raw: unknown;
  try {
    raw = parseStrictJson(text, { exactKeys: EXACT_FIELDS });
  } catch (error) {
    if (error instanceof StrictJsonError) strictProblems(file, error);
    throw error;
  }
  if (!Array.isArray(raw)) throw new UnreadableInventoryFileError(`${file} must hold a JSON array of ${ENTRY_SHAPE}`);
  const problems: string[] = [];
  const firstEntryOf = new Map<bigint, number>();
  raw.forEach((entry: unknown, index) => {
    const position = index + 1;
    const petId = (entry as { petId?: unknown } | null)?.petId;
    const label = `entry ${position}${typeof petId === 'bigint' ? ` (petId ${shortened(String(petId))})` : ''}`;
    const found = entryProblems(entry);
    if (typeof petId === 'bigint' && found.length === 0) {
      const first = firstEntryOf.get(petId);
      if (first !== undefined) found.push(`petId ${petId} is listed twice (first at entry ${first})`);
      else firstEntryOf.set(petId, position);
    }
    if (found.length > 0) problems.push(`${label}: ${found.join('; ')}`);
  });
  if (problems.length > 0) throw new InventoryFileError(file, problems);
  return (raw as InventoryFileEntry[]).map(importedOf);
}

/** Reads and checks a file; a file that cannot be read is named with the reason, in one line. */
export async function readInventoryFile(file: string): Promise<ImportedEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    const reason =
      code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? String(error)})`;
    throw new UnreadableInventoryFileError(`${file} ${reason}.`);
  }
  return parseInventoryFile(file, text);
}

/** The entry's fields among `fields` that it carries, in that order. */
const fieldsOf = (entry: InventoryFileEntry, fields: readonly (keyof InventoryFileEntry)[]) =>
  Object.fromEntries(fields.filter((field) => entry[field] !== undefined).map((field) => [field, entry[field]]));

/** What an import takes from an entry: what reservations held when it was exported is not imported. */
const importedOf = (entry: InventoryFileEntry): ImportedEntry =>
  fieldsOf(entry, [...INVENTORY_ITEM_FIELDS, THRESHOLD_FIELD]) as ImportedEntry;

/** Whether an import would leave the stored entry as it is: every field the same. */
export const sameEntry = (stored: InventoryCount, imported: InventoryCount) =>
  INVENTORY_ITEM_FIELDS.every((field) => stored[field] === imported[field]);

/**
 * The file's text: sorted by petId, one entry per line (diffs between exports stay readable), ids
 * exact. An answered entry (an export) is written with its `reserved` and `available`, a count (a
 * seed) without; the threshold last, where one is set.
 */
export function formatInventoryFile(items: readonly InventoryFileEntry[]): string {
  // Each entry's fields in the answer's order, whatever order the item's object holds them in.
  const lines = [...items].sort(byPetId).map((item) => `  ${toJson(fieldsOf(item, FILE_FIELDS))}`);
  return lines.length === 0 ? '[]\n' : `[\n${lines.join(',\n')}\n]\n`;
}
