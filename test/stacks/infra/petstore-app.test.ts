import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addPetStoreStages } from '../../../lib/petstore-app.ts';
import { CDK_JSON_CONTEXT, NO_BUNDLING, synthesizeApp, type SynthesizedApp } from './synthesized-app.ts';

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

interface Acknowledgement {
  path: string;
  ruleId: string;
  reason: string;
}

function acknowledgementsIn(app: App): Acknowledgement[] {
  return app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([key, reason]) => ({ path: construct.node.path, ruleId: key.replace(/^annotation::/i, ''), reason })),
  );
}

const describeViolations = (report: ReturnType<AwsSolutionsChecks['validateScope']>) =>
  report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.ruleName} (${violation.severity}) at ${resource.constructPath}`),
  );

describe('cdk-nag AwsSolutions checks', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('find nothing unacknowledged in either stage, warnings included', () => {
    expect(describeViolations(new AwsSolutionsChecks().validateScope(synthesized.app))).toEqual([]);
  });

  it('run in every synthesis of the app, whose validation report holds no finding', () => {
    const report = JSON.parse(readFileSync(join(synthesized.assembly.directory, VALIDATION_REPORT_FILE), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  });

  it('are acknowledged only with a specific reason', () => {
    const acknowledgements = acknowledgementsIn(synthesized.app);
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { ruleId, reason } of acknowledgements) {
      expect(ruleId).toMatch(/^AwsSolutions-/);
      expect(reason.length, `${ruleId}: "${reason}"`).toBeGreaterThanOrEqual(80);
    }
  });

  it('are acknowledged only where the rule would fire', () => {
    const acknowledgements = acknowledgementsIn(synthesized.app);
    vi.spyOn(Object.getPrototypeOf(Validations.of(synthesized.app)), 'acknowledge').mockImplementation(() => undefined);
    // Only the construct tree matters here, so the functions are not bundled again.
    const unacknowledged = new App({ context: { ...CDK_JSON_CONTEXT, ...NO_BUNDLING } });
    addPetStoreStages(unacknowledged);
    const findings = describeViolations(new AwsSolutionsChecks().validateScope(unacknowledged));
    for (const { path, ruleId } of acknowledgements) {
      const within = (finding: string) => finding.endsWith(` at ${path}`) || finding.includes(` at ${path}/`);
      expect(
        findings.some((finding) => finding.startsWith(`${ruleId} (`) && within(finding)),
        `${ruleId} at ${path}`,
      ).toBe(true);
    }
  });
});
