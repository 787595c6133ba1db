import { randomUUID } from 'node:crypto';
import type { ADJUSTMENT_REASONS, CHANGE_KINDS } from './vocabulary.ts';

/**
 * Who changed an entry, how and why: written onto the entry by the very write that changes it,
 * so a change and its attribution are one atomic write, and its history record is derived from it.
 */

export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeAttribution {
  kind: ChangeKind;
  /** The X-Request-Id of the request that made the change; a tool's own id for each of its runs. */
  requestId: string;
  /** The public id of the API key, or the tool's name (TOOL_KEY_IDS); never the key or its hash. */
  keyId: string;
  /** Adjustments only. */
  reason?: (typeof ADJUSTMENT_REASONS)[number];
  /** Adjustments (and any write made under an Idempotency-Key). */
  idempotencyKey?: string;
  /** Reserve, commit, release and expire: the reservation the change is made for. */
  reservationId?: string;
  /** Reserve, commit, release and expire: that reservation's reference, when it has one. */
  reference?: string;
}

/**
 * A change as stored: on its entry (`lastChange`), the attribution and when the change was made
 * (the writer's clock, RFC 3339 in UTC with milliseconds). The entry's version numbers it; its
 * history record (InventoryChange, as answered) is derived from it and the entry's images.
 */
export type StoredChange = ChangeAttribution & { occurredAt: string };

/** The keyId the operators' tools write under: no API key makes their changes. */
export const TOOL_KEY_IDS = {
  inventoryImport: 'tool:inventory-import',
  seed: 'tool:seed',
  /** A reservation's expiry: its time ran out, no API key asked. */
  reservationExpiry: 'system:reservation-expiry',
} as const;

/** A tool's changes: no request makes them, so each run of the tool gets a request id of its own. */
export function toolAttribution(kind: 'import' | 'seed', keyId: string): ChangeAttribution {
  return { kind, requestId: randomUUID(), keyId };
}
