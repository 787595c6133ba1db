// A TypeScript consumer of the installed package: compiled against its .d.ts only (no skipLibCheck).
import { createInventoryClient, type ApiErrorCode, type ClientErrorCode, type InventoryItem } from '@petstore/inventory-client';

const petstore = createInventoryClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'key', timeoutMs: 5_000, maxRetryAfterSeconds: 10 });
const result = await petstore.listInventory({ signal: AbortSignal.timeout(1_000) });
if (result.error) {
  const code: ApiErrorCode | ClientErrorCode = result.error.code;
  // @ts-expect-error -- a code outside the union does not type-check
  const wrong: typeof code = 'NOT_A_CODE';
  console.log(code, wrong, result.requestId, result.rateLimit?.remaining);
} else {
  const items: InventoryItem[] = result.data;
  const petId: bigint | undefined = items[0]?.petId;
  console.log(petId);
}
