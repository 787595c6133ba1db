import type { StoredChange } from './change-attribution.ts';
import { ApiError, ErrorCode } from './errors.ts';
import type { InventoryRepository } from './inventory-service.ts';
import { cursorNotHandedOut, pageCursors } from './page-cursors.ts';
import type { ChangeEventData, ChangesPage, InventoryChange, InventoryCount, PetId } from './schemas.ts';
import { CHANGES_PAGE_LIMIT } from './vocabulary.ts';

export type { ChangesPage, InventoryChange };

/**
 * A pet's history: one entry per change of its inventory entry, numbered by the entry's version.
 * The entries are derived from the entry's own writes (each carries its version and attribution,
 * see change-attribution.ts), by a consumer of the table's change stream: the change and what its
 * entry says are one atomic write, and deriving the entry twice gives the same entry.
 */

/** An inventory entry's state as a change left it: what the change stream carries before and after a write. */
export interface EntryImage extends InventoryCount {
  /** What the entry's holds hold as stored, expired ones included until their expiry is recorded: what the change moved. */
  reserved: number;
  /** Absent on entries never written since versions were introduced. */
  version?: number;
  lastChange?: StoredChange;
  /** The pet's low-stock threshold, kept on the entry so that a change's images decide its crossing (low-stock.ts). */
  lowStockThreshold?: number;
}

/** One write of an entry, as its change stream tells it: the entry before it and after it (undefined: no entry). */
export interface EntryWrite {
  before: EntryImage | undefined;
  after: EntryImage | undefined;
}

/**
 * The history record a write made, from the entry before and after it; undefined for a write
 * that made no version (an entry written before versions existed, or its removal).
 */
export function changeOf(before: EntryImage | undefined, after: EntryImage | undefined): ChangeEventData | undefined {
  if (!after?.version || !after.lastChange || after.version === before?.version) return undefined;
  const { kind, occurredAt, requestId, keyId, reason, idempotencyKey, reservationId, reference } = after.lastChange;
  const quantityBefore = before ? before.quantity : null;
  return {
    petId: after.petId,
    version: after.version,
    occurredAt,
    kind,
    quantityBefore,
    quantityAfter: after.quantity,
    delta: after.quantity - (quantityBefore ?? 0),
    status: after.status,
    reason: reason ?? null,
    reservedBefore: before?.reserved ?? 0,
    reservedAfter: after.reserved,
    reservationId: reservationId ?? null,
    reference: reference ?? null,
    idempotencyKey: idempotencyKey ?? null,
    requestId,
    keyId,
  };
}

/**
 * The changes in rounds to store one after another: each round holds at most one entry per pet,
 * and a pet's entries come in version order, one round apart. Stored so, an entry is never
 * readable before the one it follows, and a reader's cursor (the last version it read) cannot
 * pass an entry still to come.
 */
export function inVersionRounds(changes: readonly ChangeEventData[]): ChangeEventData[][] {
  const byPet = new Map<PetId, ChangeEventData[]>();
  for (const change of changes) {
    const entries = byPet.get(change.petId);
    if (entries) entries.push(change);
    else byPet.set(change.petId, [change]);
  }
  const rounds: ChangeEventData[][] = [];
  for (const entries of byPet.values()) {
    entries.sort((a, b) => a.version - b.version);
    for (const [round, entry] of entries.entries()) (rounds[round] ??= []).push(entry);
  }
  return rounds;
}

/** What the history needs from storage; the DynamoDB adapter implements it. */
export interface HistoryRepository {
  /** Stores each entry under (petId, version), a pet's in version order (see inVersionRounds); storing an entry again leaves it as it was. */
  record(changes: readonly ChangeEventData[]): Promise<void>;
  /** Up to `limit` entries of one pet after `afterVersion`, oldest first, and whether more follow. */
  page(petId: PetId, options: { limit: number; afterVersion: number }): Promise<{ changes: InventoryChange[]; more: boolean }>;
}

/**
 * Opaque to clients: the pet and the last version a page returned, so that a cursor reads one
 * pet's history only. Cursors of the format before (`v1.` and the version, naming no pet) are
 * refused as any cursor of another listing is.
 */
const historyCursors = (petId: PetId) => pageCursors(`pet${petId}.v`, { lowest: 1 });

/** The query's limit: absent for the default, else an integer from 1 to 1000 written in decimal. */
export function changesPageLimit(text: string | undefined): number {
  if (text === undefined) return CHANGES_PAGE_LIMIT.default;
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= CHANGES_PAGE_LIMIT.min && limit <= CHANGES_PAGE_LIMIT.max))
    throw new ApiError(
      ErrorCode.invalidQuery,
      `limit: must be an integer from ${CHANGES_PAGE_LIMIT.min} to ${CHANGES_PAGE_LIMIT.max}, not "${text}".`,
    );
  return limit;
}

/**
 * One page of a pet's history, oldest first. 404 for a pet without an entry (whose history, if
 * it ever had one, is no longer anyone's). Entries past the retention may be gone: a history then
 * starts at a later version. A cursor past the entry's version was never handed out: 400.
 */
export async function listInventoryChanges(
  inventory: Pick<InventoryRepository, 'get'>,
  history: Pick<HistoryRepository, 'page'>,
  petId: PetId,
  query: { limit?: string | undefined; cursor?: string | undefined },
): Promise<ChangesPage> {
  const limit = changesPageLimit(query.limit);
  const cursors = historyCursors(petId);
  const afterVersion = query.cursor === undefined ? 0 : cursors.read(query.cursor);
  // Both reads at once: the entry's existence adds no wait to the page. The entry is read
  // consistently: a history record is recorded after its version is written, so a version a page
  // handed out is never ahead of the entry so read.
  const [entry, page] = await Promise.all([inventory.get(petId, { consistent: true }), history.page(petId, { limit, afterVersion })]);
  if (!entry) throw new ApiError(ErrorCode.petNotFound, `No inventory entry exists for pet ${petId}.`);
  if (afterVersion > entry.version) throw cursorNotHandedOut();
  const last = page.changes.at(-1);
  return { changes: page.changes, nextCursor: page.more && last ? cursors.after(last.version) : null };
}
