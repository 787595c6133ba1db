/**
 * The listing's cold-start floor: the same store calls as the listing (one counting write
 * through a client of its own, then one Query per shard, every page, in parallel) written as
 * plainly as they can be (bench/bare-handlers.ts), with no Middy, plan limits, streaming or
 * error mapping. Against it the listing's ratio measures our code, not its extra connections.
 */
import { ENV } from '../../functions/config.ts';
import { bareCountingCall, bareListInventory } from '../bare-handlers.ts';
import { bareDocumentClient } from './bare-document-client.ts';

const client = bareDocumentClient();
const countingClient = bareDocumentClient();

export const handler = async () => {
  await bareCountingCall(countingClient, process.env[ENV.usageCountersTable]!, 'key_bench');
  return bareListInventory(client, process.env[ENV.inventoryTable]!);
};
