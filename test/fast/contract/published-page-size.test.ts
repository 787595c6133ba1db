import { describe, expect, it } from 'vitest';
import { PUBLISHED_PAGES } from '../../../contract/published-contract.ts';
import { MAX_MAPPING_TEMPLATE_BYTES, pageTemplate } from '../../../lib/published-contract.ts';
import { UNCOUNTED_RATE_LIMIT_TEMPLATE } from '../../../lib/rate-limit-templates.ts';

/**
 * A stage serves each published page from one mapping template, and synth fails past API
 * Gateway's limit. This fails well before, at 90% of it, so the next operations find room and the
 * page is made smaller on purpose (shared answers and headers stated once) rather than in a hurry.
 */
const HEADROOM_SHARE = 0.9;

describe('the published pages', () => {
  it.each(Object.values(PUBLISHED_PAGES).map((page) => [page.resource, page] as const))(
    "keep %s's mapping template within 90%% of API Gateway's limit",
    (_resource, page) => {
      const template = `${UNCOUNTED_RATE_LIMIT_TEMPLATE}${pageTemplate(page.render({ serverUrl: 'https://stage-url.invalid/v1', petsSunset: new Date('2027-07-01T00:00:00Z') }))}`;
      expect(Buffer.byteLength(template)).toBeLessThanOrEqual(Math.floor(MAX_MAPPING_TEMPLATE_BYTES * HEADROOM_SHARE));
    },
  );
});
