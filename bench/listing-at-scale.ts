import { createDocumentClient } from '../functions/adapters/dynamodb/document-client.ts';
import { createInventoryRepository } from '../functions/adapters/dynamodb/inventory-repository.ts';
import { MAX_INT64 } from '../functions/domain/pet-id.ts';
import type { InventoryItem } from '../functions/domain/schemas.ts';
import { jsonResponse } from '../functions/http/json.ts';
import { deliverable, LAMBDA_RESPONSE_LIMIT_BYTES, proxyResultBytes } from '../functions/http/response-size.ts';
import { LOCAL_TABLES } from '../functions/local/local-store.ts';
import { FUNCTION_MEMORY_MB } from '../lib/service-function.ts';
import type { LambdaBundle } from './bundle.ts';
import { DEPLOYED_NODE_FLAGS } from './cold-start.ts';
import { readUnits, recordStoreCalls } from './consumed-capacity.ts';
import { benchInventory, loadInventory, routeEvent, routeOf, startBenchStore } from './fixtures.ts';
import { fixed, integer, mib, ms, ratio, table } from './markdown.ts';
import { runBundle } from './run-bundle.ts';

const SIZES = [1_000, 10_000, 100_000];
/** Far above any inventory that fits one response, for the search of the largest that does. */
const SEARCH_CEILING = 200_000;

/** The largest prefix of `items` that listInventory still answers with 200, by the service's own check. */
function largestDeliverable(items: readonly InventoryItem[]): number {
  const fits = (count: number) => {
    try {
      deliverable(jsonResponse(200, items.slice(0, count)), count);
      return true;
    } catch {
      return false;
    }
  };
  let [low, high] = [0, items.length];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

export interface ListingMeasurement {
  pets: number;
  readUnits: number;
  /** The deployed function's answer: 200, or 422 beyond the largest inventory that fits. */
  status: string;
}

/**
 * Section 4: listInventory over a growing inventory, each size in a fresh process running the
 * deployed bundle; then the largest inventory one response can carry, and what lies beyond it.
 */
export async function measureListingAtScale(listBundle: LambdaBundle): Promise<{ markdown: string; measurements: ListingMeasurement[] }> {
  const smallIds = benchInventory(SEARCH_CEILING);
  const largestWithSmallIds = largestDeliverable(smallIds);
  // Ids counting down from the int64 maximum: 19 digits each, the longest a petId can be.
  const largestWithLongIds = largestDeliverable(benchInventory(SEARCH_CEILING, MAX_INT64 - BigInt(SEARCH_CEILING - 1)));
  const sizes = [...new Set([...SIZES, largestWithSmallIds, largestWithSmallIds + 1])].sort((a, b) => a - b);

  const store = await startBenchStore([]);
  // A reader of our own, instrumented, to count the pages and read units the function's scan takes.
  const reader = createDocumentClient({ endpoint: store.endpoint });
  const calls = recordStoreCalls([reader]);
  const inventory = createInventoryRepository(reader, LOCAL_TABLES.inventoryTable);
  const event = routeEvent(routeOf('listInventory'), store.keyRecord);
  const rows: (string | number)[][] = [];
  const measurements: ListingMeasurement[] = [];
  let tooLargeBody: string | undefined;
  try {
    let loaded = 0;
    for (const size of sizes) {
      const loadStartedAt = performance.now();
      await loadInventory(store.dependencies.client, smallIds.slice(loaded, size));
      const loadMs = performance.now() - loadStartedAt;
      loaded = size;

      // The timed scan is the second: the first warms the reader's connection and code, as the warm list is.
      await inventory.listAll();
      calls.length = 0;
      const scanStartedAt = performance.now();
      await inventory.listAll();
      const scanMs = performance.now() - scanStartedAt;
      const pages = calls.length;
      const units = readUnits(calls);

      // Two invocations: the first pays for the cold process, the second is a warm instance.
      const run = await runBundle(listBundle.file, event, { env: store.functionEnv, nodeFlags: DEPLOYED_NODE_FLAGS, invocations: 2 });
      const [first, warm] = run.invocations as [(typeof run.invocations)[0], (typeof run.invocations)[0]];
      if (warm.outcome === '422') tooLargeBody ??= warm.smallBody;
      measurements.push({ pets: size, readUnits: units, status: warm.outcome });
      rows.push([
        integer(size),
        `${fixed(loadMs / 1_000, 1)} s (+${integer(size - (sizes[sizes.indexOf(size) - 1] ?? 0))})`,
        pages,
        fixed(units, 1),
        ms(scanMs),
        ms(first.ms),
        ms(warm.ms),
        ratio(warm.ms / scanMs),
        mib(run.peakRssBytes),
        integer(warm.bodyBytes),
        integer(warm.resultBytes),
        warm.outcome,
      ]);
    }
  } finally {
    reader.destroy();
    await store.close();
  }

  const bytesPerEntry = (count: number, items: readonly InventoryItem[]) => proxyResultBytes(jsonResponse(200, items.slice(0, count))) / count;
  return {
    measurements,
    markdown: [
      '## 4. Listing at scale',
      '',
      `listInventory of the deployed bundle (\`${listBundle.name}\`, with \`--enable-source-maps\` as deployed) in a fresh Node process per size, against an in-memory DynamoDB Local loaded with pets 1…N (quantities 0–49, statuses in turn; 8 BatchWriteItem streams of 25 items in parallel). The process lists twice: *first* includes the cold process's first-call work, *warm* is what a warm instance takes. Peak RSS is the process's maximum resident memory over both calls (the deployed functions have ${integer(FUNCTION_MEMORY_MB)} MB). The baseline, *scan only*, is the service's own repository reading the same table in the bench process, warm (the DynamoDB work and the SDK's unmarshalling, without handler, sorting or serialization); its instrumented client counts the pages (DynamoDB returns at most 1 MB per Scan page) and the read units, as DynamoDB Local computes them for an eventually consistent scan. *Result* is the serialized Lambda proxy result, which Lambda measures against its ${integer(LAMBDA_RESPONSE_LIMIT_BYTES)}-byte limit.`,
      '',
      table(['Pets', 'Load into DynamoDB Local', 'Scan pages', 'Read units per list', 'Scan only (baseline)', 'First list', 'Warm list', 'Warm × baseline', 'Peak RSS', 'Body (bytes)', 'Result (bytes)', 'Status'], rows),
      '',
      `**Largest inventory that fits one response: ${integer(largestWithSmallIds)} pets** with ids 1…N and this data (about ${fixed(bytesPerEntry(largestWithSmallIds, smallIds), 1)} bytes per entry in the proxy result, where every quote of the body is escaped). Ids are int64: with 19-digit ids the limit falls to **${integer(largestWithLongIds)} pets**, and longer statuses or quantities shorten it further. The service checks the serialized result against the limit minus 64 KiB of headroom (functions/http/response-size.ts) and, beyond it, never truncates: it answers **422 INVENTORY_TOO_LARGE**, as the ${integer(largestWithSmallIds + 1)}-pet row shows${tooLargeBody ? `, with this body:\n\n\`\`\`json\n${tooLargeBody}\n\`\`\`\n\n` : '. '}That answer costs as much as a full listing: every page is read and the whole response serialized before its size is known.`,
    ].join('\n'),
  };
}
