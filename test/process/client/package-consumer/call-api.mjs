// Plain JavaScript, as another repository would write it: the packed client, installed from its
// tarball, against a running server. Prints one JSON line for the test to read.
import { API_ERROR_CODES, createInventoryClient } from '@petstore/inventory-client';

const { BASE_URL, PRO_KEY, FREE_KEY } = process.env;
const BIG_ID = 9007199254740993n;
const report = { node: process.version, apiErrorCodes: API_ERROR_CODES.length };

const petstore = createInventoryClient({ baseUrl: BASE_URL, apiKey: PRO_KEY });
const listed = await petstore.listInventory();
report.listed = {
  status: listed.status,
  petIds: listed.data.map((item) => String(item.petId)),
  petIdType: typeof listed.data.at(-1).petId,
  rateLimit: listed.rateLimit,
  requestId: listed.requestId,
};

const updated = await petstore.updateInventory(BIG_ID, { quantity: 11 });
report.updated = { petId: String(updated.data.petId), exact: updated.data.petId === BIG_ID, quantity: updated.data.quantity };

const missing = await petstore.getInventoryItem(424242n);
report.missing = {
  error: missing.error,
  hasRequestId: typeof missing.requestId === 'string',
  hasRateLimit: missing.rateLimit !== undefined,
};

const unreachable = await createInventoryClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: PRO_KEY, maxAttempts: 1 }).listInventory();
report.unreachable = { status: unreachable.status, code: unreachable.error.code };

// Spend the free plan's minute, then call with a deadline shorter than the Retry-After it gets.
const once = createInventoryClient({ baseUrl: BASE_URL, apiKey: FREE_KEY, maxAttempts: 1 });
let spent;
for (let sent = 0; sent < 121 && spent?.status !== 429; sent += 1) spent = await once.listInventory();
const retries = [];
const hurried = createInventoryClient({
  baseUrl: BASE_URL,
  apiKey: FREE_KEY,
  maxAttempts: 5,
  timeoutMs: 500,
  onRetry: (retry) => retries.push(retry),
});
const limited = await hurried.listInventory();
report.limited = {
  status: limited.status,
  code: limited.error.code,
  retryAfterSeconds: limited.retryAfterSeconds,
  rateLimit: limited.rateLimit,
  retries: retries.length,
};

console.log(JSON.stringify(report));
