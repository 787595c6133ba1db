import { defineConfig } from 'vitest/config';

/** `npm run test:lambda-runtime` (scripts/test-lambda-runtime.ts): the synthesized functions under AWS's runtime client. */
export default defineConfig({
  test: {
    include: ['test/lambda-runtime/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The functions' processes write their own logs (the tests read them); this process's stay quiet.
    env: { LOG_LEVEL: 'silent', METRICS_DISABLED: 'true' },
  },
});
