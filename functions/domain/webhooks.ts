import { createHmac } from 'node:crypto';
import { INVENTORY_EVENT_TYPES, type InventoryEventType } from './vocabulary.ts';

/**
 * Webhooks as the Standard Webhooks specification (standardwebhooks.com) has them: each event is
 * POSTed with `webhook-id`, `webhook-timestamp` and `webhook-signature`, the signature being
 * `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the endpoint's secret. Receivers
 * verify with any of that specification's libraries.
 */

/** A webhook setting that cannot work, named and with the reason, in one line. */
export class WebhookSettingError extends Error {
  override name = 'WebhookSettingError';
}

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The specification's bounds on the secret's size, in bytes. */
const SECRET_BYTES = { min: 24, max: 64 } as const;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$|^(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/;

/** The key in a secret's base64 text, without its prefix. */
export function signingKeyOf(base64: string, name: string): Buffer {
  if (!BASE64.test(base64)) throw new WebhookSettingError(`${name}: the part after "${WEBHOOK_SECRET_PREFIX}" must be base64.`);
  const key = Buffer.from(base64, 'base64');
  if (key.length < SECRET_BYTES.min || key.length > SECRET_BYTES.max)
    throw new WebhookSettingError(`${name}: the secret must be ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes, not ${key.length}.`);
  return key;
}

/** WEBHOOK_SECRET's form: `whsec_` and the base64 of 24 to 64 random bytes. */
export function parseWebhookSecret(text: string, name: string): Buffer {
  if (!text.startsWith(WEBHOOK_SECRET_PREFIX))
    throw new WebhookSettingError(`${name} must start with "${WEBHOOK_SECRET_PREFIX}" (the Standard Webhooks form), then base64.`);
  return signingKeyOf(text.slice(WEBHOOK_SECRET_PREFIX.length), name);
}

/**
 * A webhook URL as a log line, the start banner or a tool shows it: its origin and path. A
 * receiver may take a token in the query (or the fragment), so those are never shown, nor
 * credentials; a text that is no URL is shown up to its query.
 */
export function webhookUrlForLogs(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/s, '');
  }
}

/** An endpoint and the event types it takes (every type unless it names some). */
export interface WebhookSubscription {
  url: string;
  eventTypes: readonly InventoryEventType[];
}

/**
 * One endpoint, or several separated by commas. Each is a URL, optionally followed by the event
 * types it takes, separated by spaces (`https://a.example/reorder inventory.low_stock
 * inventory.restocked`; a URL holds no space); without types it takes every type. Each URL is
 * http or https (https only when required, as on AWS), without credentials (fetch refuses to send
 * them; receivers authenticate by the signature), and listed once.
 */
export function parseWebhookSubscriptions(text: string, name: string, { requireHttps }: { requireHttps: boolean }): WebhookSubscription[] {
  const subscriptions: WebhookSubscription[] = [];
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const [url = '', ...named] = part.trim().split(/\s+/);
    const shown = webhookUrlForLogs(url);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new WebhookSettingError(`${name}: "${webhookUrlForLogs(part.trim())}" is not a URL.`);
    }
    const schemes = requireHttps ? ['https:'] : ['http:', 'https:'];
    if (!schemes.includes(parsed.protocol))
      throw new WebhookSettingError(`${name}: "${shown}" must be ${requireHttps ? 'an https' : 'an http or https'} URL.`);
    if (parsed.username || parsed.password)
      throw new WebhookSettingError(`${name}: "${parsed.host}" carries credentials; authenticate by the signature.`);
    if (seen.has(parsed.href)) throw new WebhookSettingError(`${name}: "${shown}" is listed twice.`);
    seen.add(parsed.href);
    for (const type of named)
      if (!(INVENTORY_EVENT_TYPES as readonly string[]).includes(type))
        throw new WebhookSettingError(
          `${name}: "${shown}" names the event type "${type}"; the types are ${INVENTORY_EVENT_TYPES.join(', ')}.`,
        );
    const eventTypes = named.length > 0 ? INVENTORY_EVENT_TYPES.filter((type) => named.includes(type)) : [...INVENTORY_EVENT_TYPES];
    subscriptions.push({ url: parsed.href, eventTypes });
  }
  return subscriptions;
}

/** The subscriptions as the setting that parseWebhookSubscriptions reads (a stage's function environment). */
export function webhookSubscriptionsSetting(subscriptions: readonly WebhookSubscription[]): string {
  return subscriptions
    .map(({ url, eventTypes }) => (eventTypes.length === INVENTORY_EVENT_TYPES.length ? url : [url, ...eventTypes].join(' ')))
    .join(',');
}

export interface WebhookMessage {
  /** The event's id, the same on every attempt. */
  id: string;
  /** The exact body sent: the signature covers these bytes. */
  body: string;
}

/** `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function webhookSignature(key: Buffer, { id, body }: WebhookMessage, timestampSeconds: number): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one attempt: signed at the time it is sent, as receivers reject stale timestamps. */
export function webhookHeaders(
  key: Buffer,
  message: WebhookMessage,
  sentAt: Date,
): Record<'content-type' | 'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': message.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(key, message, timestamp),
  };
}
