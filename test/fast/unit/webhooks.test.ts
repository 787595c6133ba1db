import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { eventIdOf, inventoryChangedEvent } from '../../../functions/domain/inventory-events.ts';
import { INVENTORY_EVENT_TYPES } from '../../../functions/domain/vocabulary.ts';
import { afterFailedAttempt, retryDelayMs, WEBHOOK_RETRY_POLICY } from '../../../functions/domain/webhook-delivery.ts';
import {
  parseWebhookSecret,
  parseWebhookSubscriptions,
  webhookHeaders,
  webhookSubscriptionsSetting,
  webhookUrlForLogs,
} from '../../../functions/domain/webhooks.ts';
import { toJson } from '../../../functions/int64-json.ts';
import { petChange } from '../../support/pet-changes.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('webhook signatures', () => {
  it('signs id.timestamp.body as the standardwebhooks package verifies, and as its own signer signs', () => {
    const key = parseWebhookSecret(SECRET, 'WEBHOOK_SECRET');
    const body = toJson(inventoryChangedEvent(petChange(9_007_199_254_740_993n, 3, '2026-11-24T08:00:00.000Z')));
    const sentAt = new Date();

    const headers = webhookHeaders(key, { id: 'evt_inventory_9007199254740993_3', body }, sentAt);

    const receiver = new Webhook(SECRET);
    expect(receiver.verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(receiver.sign('evt_inventory_9007199254740993_3', sentAt, body));
    expect(body).toContain('"petId":9007199254740993');
  });

  it('derives the webhook-id from (petId, version): the same on every retry and endpoint', () => {
    expect(eventIdOf({ petId: 12n, version: 4 })).toBe('evt_inventory_12_4');
  });
});

describe('webhook settings', () => {
  it.each([
    ['abc', 'WEBHOOK_SECRET must start with "whsec_"'],
    ['whsec_not base64!', 'must be base64'],
    [`whsec_${Buffer.alloc(8).toString('base64')}`, 'must be 24 to 64 bytes, not 8'],
  ])('refuses the secret %s, saying why', (secret, why) => {
    expect(() => parseWebhookSecret(secret, 'WEBHOOK_SECRET')).toThrow(why);
  });

  it('takes one URL or several separated by commas', () => {
    expect(parseWebhookSubscriptions('http://127.0.0.1:8080/a, https://example.com/b', 'WEBHOOK_URL', { requireHttps: false })).toEqual([
      { url: 'http://127.0.0.1:8080/a', eventTypes: INVENTORY_EVENT_TYPES },
      { url: 'https://example.com/b', eventTypes: INVENTORY_EVENT_TYPES },
    ]);
  });

  it('takes the event types a URL names after it, separated by spaces, and writes them back as it reads them', () => {
    const text = 'http://127.0.0.1:4000/all, http://127.0.0.1:4001/reorder  inventory.restocked inventory.low_stock';
    const subscriptions = parseWebhookSubscriptions(text, 'WEBHOOK_URL', { requireHttps: false });
    expect(subscriptions).toEqual([
      { url: 'http://127.0.0.1:4000/all', eventTypes: INVENTORY_EVENT_TYPES },
      { url: 'http://127.0.0.1:4001/reorder', eventTypes: ['inventory.low_stock', 'inventory.restocked'] },
    ]);
    expect(parseWebhookSubscriptions(webhookSubscriptionsSetting(subscriptions), 'WEBHOOK_URL', { requireHttps: false })).toEqual(
      subscriptions,
    );
  });

  it.each([
    ['not a url', false, '"not a url" is not a URL'],
    ['ftp://example.com/', false, 'must be an http or https URL'],
    ['http://example.com/', true, 'must be an https URL'],
    ['https://user:pw@example.com/', false, 'carries credentials'],
    ['https://example.com/a,https://example.com/a', false, 'listed twice'],
    ['https://example.com/a,', false, '"" is not a URL'],
    [
      'https://example.com/a inventory.changed inventory.sold',
      false,
      'names the event type "inventory.sold"; the types are inventory.changed, inventory.low_stock, inventory.restocked',
    ],
  ])('refuses WEBHOOK_URL=%s, saying why', (text, requireHttps, why) => {
    expect(() => parseWebhookSubscriptions(text, 'WEBHOOK_URL', { requireHttps })).toThrow(why);
  });

  it.each([
    ['ftp://example.com/hooks?token=s3cret', '"ftp://example.com/hooks" must be an http or https URL'],
    ['https://example.com/a?token=s3cret,https://example.com/a?token=s3cret', '"https://example.com/a" is listed twice'],
    ['example.com/hooks?token=s3cret', '"example.com/hooks" is not a URL'],
  ])('refuses WEBHOOK_URL=%s without repeating its query', (text, why) => {
    expect(() => parseWebhookSubscriptions(text, 'WEBHOOK_URL', { requireHttps: false })).toThrow(why);
    expect(() => parseWebhookSubscriptions(text, 'WEBHOOK_URL', { requireHttps: false })).not.toThrow('s3cret');
  });
});

describe('webhook URLs in logs', () => {
  it.each([
    ['https://hooks.example:8443/inventory/in?token=s3cret&x=1#part', 'https://hooks.example:8443/inventory/in'],
    ['http://127.0.0.1:4000/hooks', 'http://127.0.0.1:4000/hooks'],
    ['https://user:s3cret@hooks.example/in', 'https://hooks.example/in'],
    ['https://hooks.example?token=s3cret', 'https://hooks.example/'],
    ['hooks.example/in?token=s3cret#part', 'hooks.example/in'],
  ])('shows %s as its origin and path only', (url, shown) => {
    expect(webhookUrlForLogs(url)).toBe(shown);
  });
});

describe('webhook retries', () => {
  it('waits 1 s after the first failure, doubling to at most 2 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 100].map((failed) => retryDelayMs(WEBHOOK_RETRY_POLICY, failed))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 120_000, 120_000, 120_000,
    ]);
  });

  it('dead-letters once the next attempt would fall more than 24 hours after the change was queued', () => {
    const day = 24 * 60 * 60 * 1_000;
    expect(afterFailedAttempt(WEBHOOK_RETRY_POLICY, 700, 0, day - 120_000)).toEqual({ retryAtMs: day });
    expect(afterFailedAttempt(WEBHOOK_RETRY_POLICY, 701, 0, day - 119_999)).toEqual({ deadLetter: true });
  });
});
