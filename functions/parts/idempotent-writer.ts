import { createIdempotentWriteRepository } from '../adapters/dynamodb/idempotent-write-repository.ts';
import { IdempotentWriter } from '../domain/idempotent-writes.ts';
import type { Part } from './part.ts';
import { reservationExpiryPart } from './reservations.ts';

/** Writes made once per Idempotency-Key (adjustments, keyed updates, reservations), recording expiries the stored figures still count. */
export const idempotentWriterPart: Part<IdempotentWriter> = (context) =>
  new IdempotentWriter(
    createIdempotentWriteRepository(context.stores.client, context.config),
    Date.now,
    undefined,
    reservationExpiryPart(context),
  );
