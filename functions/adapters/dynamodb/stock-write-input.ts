import type { StockWrite } from '../../domain/stock-writes.ts';
import { MAX_QUANTITY } from '../../domain/vocabulary.ts';
import { inventoryKey } from './stored-inventory-item.ts';
import { versionedChange } from './versioned-change.ts';

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
      UpdateExpression: `SET quantity = :quantity, ${change.set}`,
      // A compare-and-set compares with what the client read and nothing else: a stored count that merely
      // equals the new one may be another writer's change. A quantity already stored is no change: nothing
      // is written, so no version and no history entry.
      ConditionExpression: [
        'attribute_exists(petId)',
        ...(changeFrom === undefined ? [] : ['quantity = :changeFrom']),
        ...(versionCondition ? [versionCondition] : []),
        'quantity <> :quantity',
      ].join(' AND '),
      ExpressionAttributeNames: change.names,
      ExpressionAttributeValues: {
        ':quantity': quantity,
        ...(changeFrom === undefined ? {} : { ':changeFrom': changeFrom }),
        ...versionValues,
        ...change.values,
      },
    };
  }
  const { delta } = write;
  // The bound that delta could cross: below 0 for a removal, above the largest quantity for an addition.
  const [bound, limit] = delta < 0 ? ['quantity >= :limit', -delta] : ['quantity <= :limit', MAX_QUANTITY - delta];
  return {
    ...target,
    // An atomic addition: concurrent changes of one pet neither lose each other nor retry against each other.
    UpdateExpression: `SET ${change.set} ADD quantity :delta`,
    ConditionExpression: `attribute_exists(petId) AND ${bound}`,
    ExpressionAttributeNames: change.names,
    ExpressionAttributeValues: { ':delta': delta, ':limit': limit, ...change.values },
  };
}
