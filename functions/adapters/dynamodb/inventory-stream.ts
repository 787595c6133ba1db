import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EntryImage, EntryWrite } from '../../domain/inventory-history.ts';
import type { StoredChange } from '../../domain/change-attribution.ts';
import { unmarshallOptions } from './document-client.ts';
import { LOW_STOCK_THRESHOLD_ATTRIBUTE, toInventoryCount } from './stored-inventory-item.ts';

/** A record of the inventory table's stream (NEW_AND_OLD_IMAGES), as Lambda delivers it and as GetRecords returns it. */
export interface InventoryStreamRecord {
  dynamodb?: { OldImage?: Record<string, unknown>; NewImage?: Record<string, unknown> };
}

function entryImage(image: Record<string, unknown> | undefined): EntryImage | undefined {
  if (!image) return undefined;
  const stored = unmarshall(image as Record<string, AttributeValue>, unmarshallOptions()) as Record<string, { toString(): string }>;
  const version = stored.version === undefined ? undefined : Number(stored.version.toString());
  return {
    ...toInventoryCount(stored),
    reserved: stored.reserved === undefined ? 0 : Number(stored.reserved.toString()),
    ...(version === undefined ? {} : { version }),
    ...(stored.lastChange ? { lastChange: stored.lastChange as unknown as StoredChange } : {}),
    ...(stored[LOW_STOCK_THRESHOLD_ATTRIBUTE] === undefined
      ? {}
      : { lowStockThreshold: Number(stored[LOW_STOCK_THRESHOLD_ATTRIBUTE].toString()) }),
  };
}

/** The writes the records tell of, in their order, each image decoded once. */
export function writesOfRecords(records: readonly InventoryStreamRecord[]): EntryWrite[] {
  return records.map((record) => ({ before: entryImage(record.dynamodb?.OldImage), after: entryImage(record.dynamodb?.NewImage) }));
}
