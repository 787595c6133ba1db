import type { ChangeEventData } from '../../functions/domain/inventory-events.ts';

/** A pet's history entry as the stream consumer derives it, with its pet: an arrival of one, version by version. */
export function petChange(petId: bigint, version: number, occurredAt = new Date().toISOString()): ChangeEventData {
  return {
    petId,
    version,
    occurredAt,
    kind: 'adjustment',
    quantityBefore: version - 1,
    quantityAfter: version,
    delta: 1,
    status: 'available',
    reason: 'arrival',
    idempotencyKey: `arrival-${version}`,
    requestId: `request-${petId}-${version}`,
    keyId: 'key_test',
  };
}
