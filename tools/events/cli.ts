/**
 * `npm run events -- dead-letters` lists the webhooks npm start gave up on after 24 hours;
 * `npm run events -- redrive [eventId ...]` queues them (or the ones named) again, with a new
 * 24 hours; the running server sends them within a second. DATA_DIR as for npm start.
 * With `--stage`, the same on AWS's dead-letter queue: not in this version (see docs/events.md).
 */
import { resolve } from 'node:path';
import { LOCAL_TABLES } from '../../local/local-store.ts';
import { createWebhookOutbox } from '../../local/webhook-outbox.ts';
import { openLocalStore } from '../keys/key-targets.ts';

async function main(): Promise<void> {
  const [command, ...eventIds] = process.argv.slice(2);
  if (command !== 'dead-letters' && command !== 'redrive') throw new Error('Usage: npm run events -- dead-letters | redrive [eventId ...]');
  const store = await openLocalStore(resolve(process.env.DATA_DIR ?? '.data'));
  try {
    const outbox = createWebhookOutbox(store.client, LOCAL_TABLES.webhookOutboxTable);
    if (command === 'dead-letters') {
      const dead = await outbox.list('dead');
      for (const delivery of dead)
        console.log(`${delivery.eventId}  ${delivery.url}  ${delivery.attempts} attempts, last: ${delivery.lastFailure ?? 'unknown'}`);
      console.log(`${dead.length} dead-lettered webhook${dead.length === 1 ? '' : 's'} in the ${store.describe}.`);
      return;
    }
    const queued = await outbox.redrive(Date.now(), eventIds.length > 0 ? eventIds : undefined);
    console.log(`Queued ${queued.length} webhook${queued.length === 1 ? '' : 's'} again in the ${store.describe}.`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
