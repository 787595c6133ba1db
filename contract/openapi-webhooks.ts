import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { InventoryChangedEvent } from '../functions/domain/schemas.ts';
import { INVENTORY_CHANGED } from '../functions/domain/vocabulary.ts';
import { WEBHOOK_RETRY_POLICY } from '../functions/domain/webhook-delivery.ts';
import { WEBHOOK_EXAMPLE } from './examples.ts';

type Operation = Parameters<OpenAPIRegistry['registerPath']>[0];

const seconds = (milliseconds: number) => milliseconds / 1_000;

/**
 * The event a server POSTs to each of its webhook URLs, as the Standard Webhooks specification
 * has it (functions/domain/webhooks.ts signs it): a receiver verifies it with any of that
 * specification's libraries. The answers are the receiver's, and what the sender does with them.
 */
export function inventoryChangedWebhook(): Operation {
  const policy = WEBHOOK_RETRY_POLICY;
  const header = (description: string, example: string) => z.string().meta({ description, example });
  return {
    method: 'post',
    path: INVENTORY_CHANGED,
    operationId: 'inventoryChanged',
    tags: ['Store'],
    summary: 'A change of stock, pushed to your endpoint (experimental)',
    description: [
      "Every change recorded in a pet's history is POSTed as JSON to each webhook URL of the server (`WEBHOOK_URL` of `npm start`; the stage's `webhookUrls` on AWS), signed with its secret.",
      `**At least once**: any answer but 2xx, a refused connection or no answer within ${seconds(policy.attemptTimeoutMs)} s is retried after ${seconds(policy.firstRetryDelayMs)} s, doubling, at most ${seconds(policy.maxRetryDelayMs)} s apart, for ${policy.retryForMs / 3_600_000} hours; then the delivery is dead-lettered, kept for an operator to send again. Redirects are not followed. Deduplicate by \`webhook-id\` (or by \`petId\` and \`version\`).`,
      "**In order per pet**: a pet's changes reach each endpoint in version order; a redriven dead letter arrives after the later versions, so keep the highest version seen.",
      '**Verify before trusting**: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `webhook-id`, `.`, `webhook-timestamp`, `.` and the raw body, under the secret (its base64 part after `whsec_`, decoded). Refuse a timestamp more than five minutes from your clock.',
    ].join('\n\n'),
    'x-experimental': true,
    security: [],
    request: {
      headers: z.object({
        'webhook-id': header(
          "The event's id, `evt_inventory_<petId>_<version>`: the same on every attempt, at every endpoint and after a redrive.",
          WEBHOOK_EXAMPLE.headers['webhook-id'],
        ),
        'webhook-timestamp': header('When this attempt was sent, in Unix seconds.', WEBHOOK_EXAMPLE.headers['webhook-timestamp']),
        'webhook-signature': header(
          '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret.',
          WEBHOOK_EXAMPLE.headers['webhook-signature'],
        ),
      }),
      body: {
        required: true,
        content: { 'application/json': { schema: InventoryChangedEvent, example: WEBHOOK_EXAMPLE.body } },
      },
    },
    responses: {
      '2XX': { description: 'Delivered: the event is not sent to this endpoint again (unless an operator redrives it).' },
      default: {
        description: `Any other answer, like a refused connection or no answer within ${seconds(policy.attemptTimeoutMs)} s, is a failed attempt: the event is sent again later, with the same \`webhook-id\` and body.`,
      },
    },
  };
}
