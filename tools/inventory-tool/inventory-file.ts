/**
 * The inventory file the operators' tool imports and exports: a JSON array of InventoryItem,
 * as GET /v1/inventory answers it, with every petId digit kept.
 */
import { byPetId } from '../../functions/domain/inventory-service.ts';
import { MAX_INT64 } from '../../functions/domain/pet-id.ts';
import { InventoryItem, MAX_QUANTITY, PetStatus } from '../../functions/domain/schemas.ts';
import { toJson } from '../../functions/http/json.ts';

/** A file refused whole: one line per bad entry, and nothing written. */
export class InventoryFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super([...problems, `${file}: ${problems.length} bad ${problems.length === 1 ? 'entry' : 'entries'}; nothing was written.`].join('\n'));
    this.name = 'InventoryFileError';
  }
}

const FIELD_RULES: Record<string, string> = {
  petId: `petId must be an integer from 1 to ${MAX_INT64}`,
  quantity: `quantity must be an integer from 0 to ${MAX_QUANTITY}`,
  status: `status must be one of ${PetStatus.options.join(', ')}`,
};

function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'bigint') return `got ${value}`;
  return `got ${JSON.stringify(value)}`;
}

/** What is wrong with one entry, each field once, in the contract's words rather than the validator's. */
function entryProblems(entry: unknown): string[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return ['must be an object {"petId", "quantity", "status"}'];
  const parsed = InventoryItem.safeParse(entry);
  if (parsed.success) return [];
  const problems = new Set<string>();
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problems.add(`unknown field "${key}"`);
    else {
      const field = String(issue.path[0]);
      problems.add(`${FIELD_RULES[field] ?? issue.message} (${shown((entry as Record<string, unknown>)[field])})`);
    }
  }
  return [...problems];
}

/**
 * Checks the whole file before anything is written: JSON, an array, every entry a valid
 * InventoryItem, no petId twice. petIds are read from their source text, so ids above 2^53 keep
 * every digit.
 */
export function parseInventoryFile(file: string, text: string): InventoryItem[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text, (key, value: unknown, context?: { source?: string }) =>
      key === 'petId' && typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source)
        ? BigInt(context.source)
        : value,
    );
  } catch (error) {
    throw new InventoryFileError(file, [`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  if (!Array.isArray(raw)) throw new InventoryFileError(file, [`${file} must hold a JSON array of {"petId", "quantity", "status"}`]);
  const problems: string[] = [];
  const firstEntryOf = new Map<bigint, number>();
  raw.forEach((entry: unknown, index) => {
    const position = index + 1;
    const petId = (entry as { petId?: unknown } | null)?.petId;
    const label = `entry ${position}${typeof petId === 'bigint' ? ` (petId ${petId})` : ''}`;
    const found = entryProblems(entry);
    if (typeof petId === 'bigint' && found.length === 0) {
      const first = firstEntryOf.get(petId);
      if (first !== undefined) found.push(`petId ${petId} is listed twice (first at entry ${first})`);
      else firstEntryOf.set(petId, position);
    }
    if (found.length > 0) problems.push(`${label}: ${found.join('; ')}`);
  });
  if (problems.length > 0) throw new InventoryFileError(file, problems);
  return raw as InventoryItem[];
}

/** The file's text: sorted by petId, one entry per line (diffs between exports stay readable), ids exact. */
export function formatInventoryFile(items: readonly InventoryItem[]): string {
  const lines = [...items].sort(byPetId).map((item) => `  ${toJson({ petId: item.petId, quantity: item.quantity, status: item.status })}`);
  return lines.length === 0 ? '[]\n' : `[\n${lines.join(',\n')}\n]\n`;
}
