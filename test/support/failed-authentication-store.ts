import type { FailedAuthenticationStore } from '../../functions/domain/failed-authentications.ts';

/** The DynamoDB adapter's contract in memory, for unit tests of the authorizer and the limiter. */
export function inMemoryFailedAuthenticationStore(): FailedAuthenticationStore & {
  calls: { countFailure: number; standing: number; rememberKey: number };
} {
  const failures = new Map<string, number>();
  const knownKeys = new Set<string>();
  const calls = { countFailure: 0, standing: 0, rememberKey: 0 };
  const dayOf = (startsAt: number) => startsAt - (startsAt % 86_400);
  return {
    calls,
    async countFailure(address, minute) {
      calls.countFailure += 1;
      const id = `${address}#${minute.startsAt}`;
      const count = failures.get(id) ?? 0;
      if (count >= minute.limit) return { counted: false, failures: count };
      failures.set(id, count + 1);
      return { counted: true, failures: count + 1 };
    },
    async standing(address, minute, keyHash) {
      calls.standing += 1;
      return {
        failures: failures.get(`${address}#${minute.startsAt}`) ?? 0,
        knowsKey: knownKeys.has(`${address}#${dayOf(minute.startsAt)}#${keyHash}`),
      };
    },
    async rememberKey(address, minute, keyHash) {
      calls.rememberKey += 1;
      knownKeys.add(`${address}#${dayOf(minute.startsAt)}#${keyHash}`);
    },
  };
}
