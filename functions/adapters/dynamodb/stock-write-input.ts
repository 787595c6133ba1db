import type { StockWrite } from '../../domain/stock-writes.ts';
import { MAX_HOLDS_PER_PET, MAX_QUANTITY } from '../../domain/vocabulary.ts';
import { holdAttribute, inventoryKey } from './stored-inventory-item.ts';
import { versionedChange } from './versioned-change.ts';

/**
 * The stored `available` (quantity - reserved, kept beside them because a condition cannot
 * subtract) as the start of a SET clause; an entry written before reservations has none, and
 * holds nothing, so its quantity stands for it.
 */
const AVAILABLE = 'available = if_not_exists(available, quantity)';
/** At least :held stock that no hold holds. */
const AVAILABLE_AT_LEAST = '(available >= :held OR (attribute_not_exists(available) AND quantity >= :held))';

/**
 * A StockWrite as one UpdateItem input, alone (a PATCH without a key) or as an Update action of a
 * transaction (with a key's record, or a batch's other writes): the change, its version and its
 * attribution in one write, no read first, its conditions deciding existence (no upsert), the
 * quantity's bounds, the compare-and-set and If-Match. A refusal carries the entry as it saw it
 * (ALL_OLD), so the domain can say why without a read.
 */
export function stockWriteInput(tableName: string, write: StockWrite) {
  const { petId, attribution } = write;
  const change = versionedChange(attribution);
  const target = { TableName: tableName, Key: inventoryKey(petId), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
  if ('set' in write) {
    const { quantity, preconditions } = write.set;
    const { changeFrom, versions } = preconditions;
    const versionValues = Object.fromEntries((versions ?? []).map((version, index) => [`:ifMatch${index}`, version]));
    // If-Match "0" names an entry not written since versions were introduced: it has no version attribute.
    const versionCondition = versions
      ? `(${versions.includes(0) ? 'attribute_not_exists(#version) OR ' : ''}#version IN (${Object.keys(versionValues).join(', ')}))`
      : undefined;
    return {
      ...target,
      // What reservations hold stays held: available follows the count, below 0 when it is set below what is held.
      UpdateExpression: `SET quantity = :quantity, available = :quantity - if_not_exists(reserved, :zero), ${change.set}`,
      // A compare-and-set compares with what the client read and nothing else: a stored count that merely
      // equals the new one may be another writer's change. A quantity already stored is no change: nothing
      // is written, so no version and no history record.
      ConditionExpression: [
        'attribute_exists(petId)',
        ...(changeFrom === undefined ? [] : ['quantity = :changeFrom']),
        ...(versionCondition ? [versionCondition] : []),
        'quantity <> :quantity',
      ].join(' AND '),
      ExpressionAttributeNames: change.names,
      ExpressionAttributeValues: {
        ':quantity': quantity,
        ':zero': 0,
        ...(changeFrom === undefined ? {} : { ':changeFrom': changeFrom }),
        ...versionValues,
        ...change.values,
      },
    };
  }
  if ('hold' in write) {
    const { reservationId, quantity, expiresAt } = write.hold;
    return {
      ...target,
      UpdateExpression: `SET #hold = :hold, reserved = if_not_exists(reserved, :zero) + :held, ${AVAILABLE} - :held, ${change.set} ADD holdCount :one`,
      // Only stock no other hold holds (the stored figures count a hold until its expiry is recorded:
      // the writer records it and writes again), and within the holds one entry may carry.
      ConditionExpression: `attribute_exists(petId) AND ${AVAILABLE_AT_LEAST} AND (attribute_not_exists(holdCount) OR holdCount < :maxHolds) AND attribute_not_exists(#hold)`,
      ExpressionAttributeNames: { ...change.names, '#hold': holdAttribute(reservationId) },
      ExpressionAttributeValues: {
        ':hold': { quantity, expiresAt },
        ':held': quantity,
        ':zero': 0,
        ':one': 1,
        ':maxHolds': MAX_HOLDS_PER_PET,
        ...change.values,
      },
    };
  }
  if ('settle' in write) {
    const { reservationId, quantity, sold } = write.settle;
    return {
      ...target,
      // Sold: the stock on hand goes with the hold, and available stays. Given back: available gets it back.
      UpdateExpression: `SET reserved = reserved - :held, ${sold ? 'quantity = quantity - :held' : 'available = available + :held'}, ${change.set} REMOVE #hold ADD holdCount :minusOne`,
      // A count set below what is held leaves too little on hand to sell: the commit is refused, not the count.
      ConditionExpression: `attribute_exists(#hold)${sold ? ' AND quantity >= :held' : ''}`,
      ExpressionAttributeNames: { ...change.names, '#hold': holdAttribute(reservationId) },
      ExpressionAttributeValues: { ':held': quantity, ':minusOne': -1, ...change.values },
    };
  }
  const { delta } = write;
  if (delta < 0)
    return {
      ...target,
      // An atomic removal of stock no reservation holds: concurrent changes of one pet neither lose each other nor retry against each other.
      UpdateExpression: `SET ${change.set}, ${AVAILABLE} + :delta ADD quantity :delta`,
      ConditionExpression: `attribute_exists(petId) AND ${AVAILABLE_AT_LEAST}`,
      ExpressionAttributeNames: change.names,
      ExpressionAttributeValues: { ':delta': delta, ':held': -delta, ...change.values },
    };
  return {
    ...target,
    // An atomic addition: concurrent changes of one pet neither lose each other nor retry against each other.
    UpdateExpression: `SET ${change.set}, ${AVAILABLE} + :delta ADD quantity :delta`,
    ConditionExpression: 'attribute_exists(petId) AND quantity <= :limit',
    ExpressionAttributeNames: change.names,
    ExpressionAttributeValues: { ':delta': delta, ':limit': MAX_QUANTITY - delta, ...change.values },
  };
}
