import { sendWebhook } from '../functions/adapters/webhooks/webhook-sender.ts';
import {
  startWebhookDeliveryLoop,
  type WebhookDeliveryLoop,
  type WebhookDeliveryLoopOptions,
} from '../functions/domain/webhook-delivery-loop.ts';
import { webhookUrlForLogs as shown } from '../functions/domain/webhooks.ts';
import type { OutboxHead, WebhookOutbox } from './webhook-outbox.ts';

/**
 * npm start's webhook sender: the delivery loop (functions/domain/webhook-delivery-loop.ts) over the outbox, for as
 * long as the server runs, beside it and sharing nothing with a request but the store, so a slow or dead receiver never
 * slows an answer. What it tells, it tells in one line each.
 */

/** The longest sleep between two asks of the outbox: a redrive made by another process is seen within it. */
const IDLE_POLL_MS = 1_000;

export interface WebhookDeliveryOptions
  extends Pick<WebhookDeliveryLoopOptions<OutboxHead>, 'signingKey' | 'policy' | 'now' | 'idlePollMs'>,
    Partial<Pick<WebhookDeliveryLoopOptions<OutboxHead>, 'send'>> {
  outbox: WebhookOutbox;
  /** The endpoints changes are queued for (WEBHOOK_URL); those the outbox holds deliveries for at start are served too. */
  endpoints: readonly string[];
  /** Told of a receiver that starts or stops failing, and of every dead letter. */
  onNotice?: (line: string) => void;
}

export function startWebhookDeliveries(options: WebhookDeliveryOptions): WebhookDeliveryLoop {
  const { outbox, endpoints, onNotice: notice = () => undefined, ...loop } = options;
  const now = options.now ?? Date.now;
  return startWebhookDeliveryLoop({
    ...loop,
    queue: outbox,
    endpoints: async () => [...new Set([...endpoints, ...(await outbox.recover(now()))])],
    send: options.send ?? sendWebhook,
    now,
    probeFailingReceivers: true,
    idlePollMs: options.idlePollMs ?? IDLE_POLL_MS,
    events: {
      receiverFailing: (url, failure) =>
        notice(`Webhook receiver ${shown(url)} failed: ${failure}; its deliveries wait while one at a time is retried with backoff.`),
      receiverAccepting: (url) => notice(`Webhook receiver ${shown(url)} accepts deliveries again.`),
      deadLettered: ({ eventId, url }, attempts, failure) =>
        notice(
          `Webhook ${eventId} to ${shown(url)} dead-lettered after ${attempts} attempts (${failure}); npm run events -- redrive sends it again.`,
        ),
      // The queue's due entry stays due: the next round serves it again.
      queueFailed: (error, url, delivery) =>
        notice(
          delivery
            ? `Webhook ${delivery.eventId}: the outbox could not record an attempt (${String(error)}); it is sent again.`
            : `Webhooks to ${shown(url)}: the outbox could not be read (${String(error)}); retrying.`,
        ),
      roundFailed: (error) => notice(`Webhook deliveries paused: the outbox could not be read (${String(error)}).`),
    },
  });
}
