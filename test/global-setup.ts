import type { TestProject } from 'vitest/node';
import { startLocalStore } from '../local/local-store.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one DynamoDB Local engine of this test run; each test file makes tables of its own in it. */
    storeEndpoint: string;
  }
}

/**
 * One engine per test run, in memory: a JVM starts once (about 2 s), not once per file. Every
 * file's tables stay in its heap to the end of the run (the listing's 20,500 pets, the imports,
 * the histories and feeds beside them): at npm start's 512 MB the engine spent the run's last
 * files in garbage collection, at 100% of a core, and the run stalled.
 */
const SHARED_ENGINE_HEAP_MB = 3_072;

export default async function setup(project: TestProject) {
  const store = await startLocalStore({ heapMb: SHARED_ENGINE_HEAP_MB });
  project.provide('storeEndpoint', store.endpoint);
  return () => store.close();
}
