import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Run by npm run test:lambda-runtime, after the runtime client's native build (test/lambda-runtime/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/lambda-runtime/**'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Quiet output: no log lines, and no metric lines (which ignore LOG_LEVEL by design).
    env: { LOG_LEVEL: 'silent', METRICS_DISABLED: 'true' },
  },
});
