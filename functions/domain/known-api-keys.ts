import type { ApiKeyRecord, ApiKeyRepository } from './api-keys.ts';

/**
 * How long an authorizer instance keeps what it read of a key. A warm authorizer answers a key it
 * knows with no store call; what must take effect on the next request (a revocation, a ban) is
 * enforced by the counting write every request makes, which refuses a revoked or banned key
 * whatever the authorizer knew. A plan change reaches every instance within this long. The keys
 * tool marks a revoked key's usage items for as long (local/key-admin.ts).
 */
export const KNOWN_API_KEY_SECONDS = 60;

/** Keys kept per instance: far more than one instance serves in a minute, and bounded against a flood. */
export const MAX_KNOWN_API_KEYS = 10_000;

/**
 * The keys table as one authorizer instance knows it: a record read is kept for
 * KNOWN_API_KEY_SECONDS, the oldest dropped first past `maxKeys`. Only records are kept, never an
 * absence: the unknown keys a sprayer sends cannot push the keys in use out.
 */
export function knownApiKeys(
  keys: ApiKeyRepository,
  { now = Date.now, maxKeys = MAX_KNOWN_API_KEYS }: { now?: () => number; maxKeys?: number } = {},
): ApiKeyRepository {
  const known = new Map<string, { record: ApiKeyRecord; until: number }>();
  return {
    async findByHash(keyHash) {
      const kept = known.get(keyHash);
      if (kept && kept.until > now()) return kept.record;
      known.delete(keyHash);
      const record = await keys.findByHash(keyHash);
      if (record === undefined) return undefined;
      // Insertion order is age order: the first key is the oldest.
      if (known.size >= maxKeys) known.delete(known.keys().next().value!);
      known.set(keyHash, { record, until: now() + KNOWN_API_KEY_SECONDS * 1_000 });
      return record;
    },
  };
}
