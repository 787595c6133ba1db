import { createUsageCounterRepository } from '../functions/adapters/dynamodb/usage-counter-repository.ts';
import type { ServiceConfig } from '../functions/config.ts';
import { apiKeysPart } from '../functions/parts/api-keys.ts';
import { changeFeedPart } from '../functions/parts/change-feed.ts';
import { failedAuthenticationsPart } from '../functions/parts/failed-authentications.ts';
import { historyPart } from '../functions/parts/history.ts';
import { idempotentWriterPart } from '../functions/parts/idempotent-writer.ts';
import { inventoryPart } from '../functions/parts/inventory.ts';
import { buildParts, type Part, type PartContext } from '../functions/parts/part.ts';
import { planLimiterPart } from '../functions/parts/plan-limiter.ts';
import { reservationExpiryPart, reservationsPart } from '../functions/parts/reservations.ts';
import { createStoreClients } from '../functions/parts/store-clients.ts';
import { thresholdsPart } from '../functions/parts/thresholds.ts';

/**
 * Every function's parts at once, for a host that serves every operation in one process (the
 * local server, the tests, the bench): built from the same part factories as the Lambda
 * functions, each once (`built`), whichever operations name it.
 */
export function createDependencies(config: ServiceConfig) {
  const stores = createStoreClients(config);
  const context: PartContext = { stores, config };
  const built = new Map<Part<unknown>, unknown>();
  const parts = buildParts(
    {
      inventory: inventoryPart,
      thresholds: thresholdsPart,
      history: historyPart,
      changeFeed: changeFeedPart,
      idempotentWriter: idempotentWriterPart,
      reservations: reservationsPart,
      reservationExpiry: reservationExpiryPart,
      apiKeys: apiKeysPart,
      failedAuthentications: failedAuthenticationsPart,
      limiter: planLimiterPart,
    },
    context,
    built,
  );
  return {
    ...stores,
    ...parts,
    usageCounters: createUsageCounterRepository(stores.countingClient, config.usageCountersTable),
    /** The parts an operation names (its definition's), built once for every operation of this host. */
    partsOf: <Parts>(factories: { readonly [Name in keyof Parts]: Part<Parts[Name]> }): Parts => buildParts(factories, context, built),
  };
}

export type ServiceDependencies = ReturnType<typeof createDependencies>;
