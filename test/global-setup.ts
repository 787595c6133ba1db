import type { TestProject } from 'vitest/node';
import { startLocalStore } from '../local/local-store.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one DynamoDB Local engine of this test run; each test file makes tables of its own in it. */
    storeEndpoint: string;
  }
}

/** One engine per test run, in memory: a JVM starts once (about 2 s), not once per file. */
export default async function setup(project: TestProject) {
  const store = await startLocalStore();
  project.provide('storeEndpoint', store.endpoint);
  return () => store.close();
}
