import type { TestProject } from 'vitest/node';
import { startLocalStore } from '../local/local-store.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one DynamoDB Local engine of this test run; each test file makes tables of its own in it. */
    storeEndpoint: string;
  }
}

/**
 * One engine per test run, in memory: a JVM starts once (about 2 s), not once per file. Each
 * file's tables are deleted after it (test/setup.ts), but the engine keeps their stream records
 * (see TableOptions in local/local-store.ts), and two files run at once: at npm start's 512 MB
 * the engine spent the run's last files in garbage collection, at 100% of a core, and the run
 * stalled.
 */
const SHARED_ENGINE_HEAP_MB = 3_072;

export default async function setup(project: TestProject) {
  const store = await startLocalStore({ heapMb: SHARED_ENGINE_HEAP_MB });
  project.provide('storeEndpoint', store.endpoint);
  return () => store.close();
}
