import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A pet's whole history over HTTP once it has caught up with the entry's version (its ETag): the
 * consumer records changes in the background. `baseUrl` ends in /v1.
 */
export async function caughtUpHistory<Entry extends { version: number }>(baseUrl: string, apiKey: string, petId: bigint): Promise<Entry[]> {
  const base = `${baseUrl}/inventory/${petId}`;
  const headers = { Authorization: `Bearer ${apiKey}` };
  const version = Number(JSON.parse((await fetch(base, { headers })).headers.get('etag')!));
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const changes: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await fetch(`${base}/changes?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { headers })).json()) as {
        changes: Entry[];
        nextCursor: string | null;
      };
      changes.push(...page.changes);
      cursor = page.nextCursor;
    } while (cursor);
    if (changes.at(-1)?.version === version) return changes;
    await sleep(100);
  }
  throw new Error(`the history of pet ${petId} did not reach version ${version} within 10 s`);
}
