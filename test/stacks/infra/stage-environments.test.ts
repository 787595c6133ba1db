import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { BUNDLING_STACKS } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import { addPetStoreStages } from '../../../lib/petstore-app.ts';
import { checkDeployTarget, readStageEnvironments } from '../../../lib/stage-environments.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';
import { CDK_JSON_CONTEXT } from './synthesized-app.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const STAGING = { account: '111111111111', region: 'eu-west-1' };
const PROD = { account: '222222222222', region: 'eu-central-1' };
const NO_VARIABLES = {};

describe('readStageEnvironments', () => {
  it('reads each stage from cdk.json context, the environment winning', () => {
    expect(readStageEnvironments({ staging: STAGING, prod: PROD }, NO_VARIABLES)).toEqual({ staging: STAGING, prod: PROD });
    expect(
      readStageEnvironments({ staging: STAGING }, { PROD_ACCOUNT: PROD.account, PROD_REGION: PROD.region, STAGING_REGION: 'us-east-1' }),
    ).toEqual({
      staging: { ...STAGING, region: 'us-east-1' },
      prod: PROD,
    });
  });

  it('leaves a stage nobody pinned out, which keeps synthesis free of credentials', () => {
    expect(readStageEnvironments(undefined, NO_VARIABLES)).toEqual({});
  });

  it.each([
    [
      { prod: { account: STAGING.account, region: PROD.region }, staging: STAGING },
      /^Prod is pinned to the staging account 111111111111: prod must have an account of its own/,
    ],
    [
      { prod: { account: PROD.account } },
      /^The prod stage is half pinned \(account 222222222222, region missing\): set both in cdk.json context stageEnvironments.prod \{"account", "region"\} or PROD_ACCOUNT and PROD_REGION/,
    ],
    [{ staging: { account: '1234', region: 'eu-west-1' } }, /^The staging account must be a 12-digit AWS account id, not "1234"/],
    [
      { staging: { account: STAGING.account, region: 'Ireland' } },
      /^The staging region must be a region name such as eu-west-1, not "Ireland"/,
    ],
  ])('refuses %j', (context, message) => {
    expect(() => readStageEnvironments(context, NO_VARIABLES)).toThrow(message);
  });
});

describe('checkDeployTarget', () => {
  const pinned = { staging: STAGING, prod: PROD };

  it('lets synthesis that names no stage through, pinned or not', () => {
    expect(() => checkDeployTarget(undefined, {}, undefined)).not.toThrow();
  });

  it("lets a deploy through with credentials of the stage's own account", () => {
    expect(() => checkDeployTarget('prod', pinned, PROD.account)).not.toThrow();
  });

  it('refuses a deploy of a stage that is not pinned', () => {
    expect(() => checkDeployTarget('prod', { staging: STAGING }, undefined)).toThrow(
      'Refusing to deploy PetStoreInventory-Prod: no account and region are pinned for prod. Set cdk.json context stageEnvironments.prod {"account", "region"} or PROD_ACCOUNT and PROD_REGION; see docs/deploying-and-operating.md, "Deploying to AWS".',
    );
  });

  it("refuses a deploy of prod with the staging account's credentials", () => {
    expect(() => checkDeployTarget('prod', pinned, STAGING.account)).toThrow(
      'Refusing to deploy PetStoreInventory-Prod to account 222222222222 with credentials of account 111111111111 (the staging account): set AWS_PROFILE to a profile of the prod account; see docs/deploying-and-operating.md, "Deploying to AWS".',
    );
  });
});

describe('the app', () => {
  it("pins each stack to its stage's account and region", () => {
    const app = new App({
      context: { ...CDK_JSON_CONTEXT, [BUNDLING_STACKS]: [], stageEnvironments: { staging: STAGING, prod: PROD } },
      outdir: temporaryDirectory('petstore-pinned-'),
    });

    const stacks = addPetStoreStages(app);

    expect([stacks.staging.environment, stacks.prod.environment]).toEqual([
      `aws://${STAGING.account}/${STAGING.region}`,
      `aws://${PROD.account}/${PROD.region}`,
    ]);
  });

  it("has no stage pinned in the committed cdk.json, so a clone never deploys into someone else's account", () => {
    expect(JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context.stageEnvironments).toBeUndefined();
  });

  const runApp = (context: Record<string, unknown>, credentialsAccount?: string) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(AWS|CDK)_|^(STAGING|PROD)_(ACCOUNT|REGION)$/.test(name)),
    );
    // What `npm run deploy:prod` makes the CDK CLI do: run the app with the script's context and the credentials' account.
    return promisify(execFile)('npx', ['tsx', 'bin/app.ts'], {
      cwd: PROJECT_ROOT,
      env: {
        ...env,
        CDK_OUTDIR: temporaryDirectory('petstore-refused-'),
        CDK_CONTEXT_JSON: JSON.stringify({ ...CDK_JSON_CONTEXT, ...context }),
        ...(credentialsAccount ? { CDK_DEFAULT_ACCOUNT: credentialsAccount } : {}),
      },
    });
  };

  it('refuses `npm run deploy:staging` without a pinned account in its one line, with no stack trace', async () => {
    const refused = await runApp({ deployStage: 'staging', stageEnvironments: {} }).catch((error: { stderr: string }) => error);
    // npx may warn about the machine's npm configuration; the app's own output is the rest.
    const lines = (refused as { stderr: string }).stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));

    expect(lines).toEqual([
      expect.stringMatching(/^Refusing to deploy PetStoreInventory-Staging: no account and region are pinned for staging\. /),
    ]);
  }, 60_000);

  it('refuses a deploy of Prod configured with the staging account, before building anything', async () => {
    const refused = runApp({ deployStage: 'prod', stageEnvironments: { staging: STAGING, prod: { ...PROD, account: STAGING.account } } });

    await expect(refused).rejects.toMatchObject({
      stderr: expect.stringContaining('Prod is pinned to the staging account 111111111111: prod must have an account of its own'),
    });
  }, 60_000);

  it("refuses `npm run deploy:prod` when prod is not pinned, and when the credentials are staging's", async () => {
    await expect(runApp({ deployStage: 'prod', stageEnvironments: { staging: STAGING } })).rejects.toMatchObject({
      stderr: expect.stringContaining('Refusing to deploy PetStoreInventory-Prod: no account and region are pinned for prod.'),
    });
    await expect(
      runApp({ deployStage: 'prod', stageEnvironments: { staging: STAGING, prod: PROD } }, STAGING.account),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('with credentials of account 111111111111 (the staging account)'),
    });
  }, 60_000);
});
