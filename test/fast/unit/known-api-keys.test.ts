import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord, ApiKeyRepository } from '../../../functions/domain/api-keys.ts';
import { KNOWN_API_KEY_SECONDS, knownApiKeys } from '../../../functions/domain/known-api-keys.ts';

const record = (keyHash: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  keyHash,
  keyId: `key_${keyHash}`,
  owner: 'Acme',
  plan: 'pro',
  status: 'active',
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

/** The keys table: what it holds now, and every lookup that reached it. */
function keysTable(records: ApiKeyRecord[]) {
  const stored = new Map(records.map((entry) => [entry.keyHash, entry]));
  const lookups: string[] = [];
  const repository: ApiKeyRepository = {
    findByHash: async (keyHash) => {
      lookups.push(keyHash);
      return stored.get(keyHash);
    },
  };
  return { repository, stored, lookups };
}

function clock(startMs = Date.UTC(2026, 10, 27, 12, 0, 0)) {
  let nowMs = startMs;
  return { now: () => nowMs, advance: (ms: number) => (nowMs += ms) };
}

describe("the authorizer's memory of keys", () => {
  it('answers a key it read in the last minute without a lookup, what it read then included', async () => {
    const table = keysTable([record('a')]);
    const time = clock();
    const keys = knownApiKeys(table.repository, { now: time.now });

    await keys.findByHash('a');
    table.stored.set('a', record('a', { status: 'revoked', plan: 'business' }));
    time.advance(KNOWN_API_KEY_SECONDS * 1_000 - 1);

    // Still the record read then: the counting write, not this memory, refuses a key revoked since (test/store/e2e).
    await expect(keys.findByHash('a')).resolves.toEqual(record('a'));
    expect(table.lookups).toEqual(['a']);
  });

  it('reads the key again once what it read is a minute old, and keeps the new record', async () => {
    const table = keysTable([record('a')]);
    const time = clock();
    const keys = knownApiKeys(table.repository, { now: time.now });

    await keys.findByHash('a');
    table.stored.set('a', record('a', { plan: 'business' }));
    time.advance(KNOWN_API_KEY_SECONDS * 1_000);

    await expect(keys.findByHash('a')).resolves.toEqual(record('a', { plan: 'business' }));
    await expect(keys.findByHash('a')).resolves.toEqual(record('a', { plan: 'business' }));
    expect(table.lookups).toEqual(['a', 'a']);
  });

  it('never keeps an absence: an unknown key is looked up each time', async () => {
    const table = keysTable([]);
    const keys = knownApiKeys(table.repository, { now: clock().now });

    await expect(keys.findByHash('nobody')).resolves.toBeUndefined();
    await expect(keys.findByHash('nobody')).resolves.toBeUndefined();

    expect(table.lookups).toEqual(['nobody', 'nobody']);
  });

  it('keeps at most maxKeys keys, dropping the one read longest ago', async () => {
    const table = keysTable([record('a'), record('b'), record('c')]);
    const keys = knownApiKeys(table.repository, { now: clock().now, maxKeys: 2 });

    for (const keyHash of ['a', 'b', 'c', 'b', 'c', 'a']) await keys.findByHash(keyHash);

    // a, b, c read; c pushed a out; b and c known; a read again, pushing b out.
    expect(table.lookups).toEqual(['a', 'b', 'c', 'a']);
    await keys.findByHash('c');
    await keys.findByHash('b');
    expect(table.lookups).toEqual(['a', 'b', 'c', 'a', 'b']);
  });

  it('fails as the table fails, keeping nothing', async () => {
    const table = keysTable([record('a')]);
    let failing = true;
    const keys = knownApiKeys(
      {
        findByHash: async (keyHash) => {
          if (failing) throw new Error('store unavailable');
          return table.repository.findByHash(keyHash);
        },
      },
      { now: clock().now },
    );

    await expect(keys.findByHash('a')).rejects.toThrow('store unavailable');
    failing = false;
    await expect(keys.findByHash('a')).resolves.toEqual(record('a'));
    expect(table.lookups).toEqual(['a']);
  });
});
