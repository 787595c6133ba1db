import { createDependencies, type ServiceDependencies } from '../../functions/dependencies.ts';
import { DEFAULT_BAN_POLICY, type BanPolicy } from '../../functions/domain/usage-limits.ts';
import { LOCAL_TABLES, startLocalStore, type LocalStore } from '../../functions/local/local-store.ts';

export interface TestStore {
  store: LocalStore;
  dependencies: ServiceDependencies;
  close(): Promise<void>;
}

/** A fresh in-memory dynalite with the service's tables, and the service's adapters over it. */
export async function startTestStore(banPolicy: BanPolicy = DEFAULT_BAN_POLICY): Promise<TestStore> {
  const store = await startLocalStore();
  const dependencies = createDependencies({ ...LOCAL_TABLES, dynamodbEndpoint: store.endpoint, banPolicy });
  return {
    store,
    dependencies,
    async close() {
      dependencies.close();
      await store.close();
    },
  };
}
