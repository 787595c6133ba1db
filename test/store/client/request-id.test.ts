import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInventoryClient } from '../../../client/index.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { testAppStore } from '../../support/local-store.ts';

const KEY = 'ClientRequestIdKey000000000000001';
let app: LocalApp;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: KEY, devPlan: 'pro' });
});
afterAll(async () => app?.close());

describe('the client reports the request id of every answer', () => {
  it('on a success and on each error, as the X-Request-Id header says', async () => {
    const client = createInventoryClient({ baseUrl: app.baseUrl, apiKey: KEY });
    const stranger = createInventoryClient({ baseUrl: app.baseUrl, apiKey: 'UnknownKey00000000000000000000001' });

    const answers = [await client.listInventory(), await client.getPetById(404_404n), await stranger.listInventory()];

    expect(answers.map((answer) => [answer.status, answer.error?.code])).toEqual([
      [200, undefined],
      [404, 'PET_NOT_FOUND'],
      [401, 'UNAUTHORIZED'],
    ]);
    for (const answer of answers) expect(answer.requestId).toBe(answer.response?.headers.get('X-Request-Id'));
    expect(new Set(answers.map((answer) => answer.requestId)).size).toBe(3);
    expect(answers.every((answer) => typeof answer.requestId === 'string' && answer.requestId.length > 0)).toBe(true);
  });
});
