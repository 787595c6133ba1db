import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { InventoryChangedEvent, InventoryLowStockEvent, InventoryRestockedEvent } from '../functions/domain/schemas.ts';
import { INVENTORY_CHANGED, INVENTORY_LOW_STOCK, INVENTORY_RESTOCKED } from '../functions/domain/vocabulary.ts';
import { WEBHOOK_RETRY_POLICY } from '../functions/domain/webhook-delivery.ts';
import { LOW_STOCK_WEBHOOK_EXAMPLE, WEBHOOK_EXAMPLE } from './examples.ts';

type Operation = Parameters<OpenAPIRegistry['registerPath']>[0];

const seconds = (milliseconds: number) => milliseconds / 1_000;

/** The Standard Webhooks headers of an event's POST, the id's form stated. */
function webhookHeaders(idForm: string, example: { headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> }) {
  const header = (description: string, value: string) => z.string().meta({ description, example: value });
  return z.object({
    'webhook-id': header(
      `The event's id, ${idForm}: the same on every attempt, at every endpoint and after a redrive.`,
      example.headers['webhook-id'],
    ),
    'webhook-timestamp': header('When this attempt was sent, in Unix seconds.', example.headers['webhook-timestamp']),
    'webhook-signature': header(
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret.',
      example.headers['webhook-signature'],
    ),
  });
}

/** What a receiver's answers mean, for every event. */
function receiverAnswers(): Operation['responses'] {
  const policy = WEBHOOK_RETRY_POLICY;
  return {
    '2XX': { description: 'Delivered: the event is not sent to this endpoint again (unless an operator redrives it).' },
    default: {
      description: `Any other answer, like a refused connection or no answer within ${seconds(policy.attemptTimeoutMs)} s, is a failed attempt: the event is sent again later, with the same \`webhook-id\` and body.`,
    },
  };
}

/**
 * The event a server POSTs to each of its webhook URLs, as the Standard Webhooks specification
 * has it (functions/domain/webhooks.ts signs it): a receiver verifies it with any of that
 * specification's libraries. The answers are the receiver's, and what the sender does with them.
 */
export function inventoryChangedWebhook(): Operation {
  const policy = WEBHOOK_RETRY_POLICY;
  return {
    method: 'post',
    path: INVENTORY_CHANGED,
    operationId: 'inventoryChanged',
    tags: ['Store'],
    summary: 'A change of stock, pushed to your endpoint (experimental)',
    description: [
      "Every change recorded in a pet's history is POSTed as JSON to each webhook URL of the server (`WEBHOOK_URL` of `npm start`; the stage's `webhookUrls` on AWS) that takes `inventory.changed`, signed with its secret. A URL takes every event type unless it is followed by the types it wants, separated by spaces (`https://erp.example/reorder inventory.low_stock inventory.restocked`).",
      `**At least once**: any answer but 2xx, a refused connection or no answer within ${seconds(policy.attemptTimeoutMs)} s is retried after ${seconds(policy.firstRetryDelayMs)} s, doubling, at most ${seconds(policy.maxRetryDelayMs)} s apart, for ${policy.retryForMs / 3_600_000} hours; then the delivery is dead-lettered, kept for an operator to send again. Redirects are not followed. Deduplicate by \`webhook-id\` (or by \`petId\` and \`version\`).`,
      "**In order per pet**: a pet's events reach each endpoint in version order, an alert right after its change; a redriven dead letter arrives after the later versions, so keep the highest version seen.",
      '**Verify before trusting**: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `webhook-id`, `.`, `webhook-timestamp`, `.` and the raw body, under the secret (its base64 part after `whsec_`, decoded). Refuse a timestamp more than five minutes from your clock.',
    ].join('\n\n'),
    'x-experimental': true,
    security: [],
    request: {
      headers: webhookHeaders('`evt_inventory_<petId>_<version>`', WEBHOOK_EXAMPLE),
      body: {
        required: true,
        content: { 'application/json': { schema: InventoryChangedEvent, example: WEBHOOK_EXAMPLE.body } },
      },
    },
    responses: receiverAnswers(),
  };
}

/** A low-stock alert's webhook: `inventory.low_stock` or `inventory.restocked`, delivered as `inventory.changed` is. */
export function stockAlertWebhook(type: typeof INVENTORY_LOW_STOCK | typeof INVENTORY_RESTOCKED): Operation {
  const low = type === INVENTORY_LOW_STOCK;
  const example = LOW_STOCK_WEBHOOK_EXAMPLE;
  return {
    method: 'post',
    path: type,
    operationId: low ? 'inventoryLowStock' : 'inventoryRestocked',
    tags: ['Store'],
    summary: low
      ? "A pet's available stock fell below its low-stock threshold (experimental)"
      : "A pet's available stock is back at its low-stock threshold or above (experimental)",
    description: [
      low
        ? "POSTed when an accepted change takes the pet's `available` stock from at least its threshold (`putLowStockThreshold`) to below it: once per crossing, never once per change below it; changes made at once that cross once raise one. Setting a threshold is no change and raises none: `GET /inventory?lowStock=true` lists the pets below theirs."
        : "POSTed when an accepted change takes the pet's `available` stock from below its threshold back to at least it: once per crossing.",
      "`data.version` is the change that crossed: its `inventory.changed` comes first, and it is in the pet's history. Delivered, signed and retried as `inventory.changed` is (see it).",
    ].join('\n\n'),
    'x-experimental': true,
    security: [],
    request: {
      headers: webhookHeaders(`\`evt_inventory_<petId>_<version>_${low ? 'low_stock' : 'restocked'}\``, example),
      body: {
        required: true,
        content: {
          'application/json': {
            schema: low ? InventoryLowStockEvent : InventoryRestockedEvent,
            example: low ? example.body : { ...example.body, type: INVENTORY_RESTOCKED },
          },
        },
      },
    },
    responses: receiverAnswers(),
  };
}
