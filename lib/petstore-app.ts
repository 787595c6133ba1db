import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { DeploymentStage } from '../functions/deployments.ts';
import { PetStoreInventoryStack, STAGE_SETTINGS } from './petstore-inventory-stack.ts';

/**
 * Both stages in one app, with the same paths and their own tables and keys. Account and
 * region come from the CLI's environment (profile, CDK_DEFAULT_ACCOUNT/REGION); with none,
 * the stacks are environment-agnostic, so synthesis needs no credentials.
 */
export function addPetStoreStages(app: App): Record<DeploymentStage, PetStoreInventoryStack> {
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const stacks = {
    staging: new PetStoreInventoryStack(app, 'PetStoreInventory-Staging', { env, settings: STAGE_SETTINGS.staging }),
    prod: new PetStoreInventoryStack(app, 'PetStoreInventory-Prod', { env, settings: STAGE_SETTINGS.prod }),
  };
  // Every synthesis (CLI and tests) is checked: an unacknowledged finding fails it.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stacks;
}
