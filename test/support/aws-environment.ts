import { vi } from 'vitest';

/** An environment in which the SDK finds exactly what is given: no profile files, no instance metadata. */
export function awsEnvironment(values: Record<string, string>): void {
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env).filter((candidate) => candidate.startsWith('AWS_'))) vi.stubEnv(name, undefined);
  vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/aws-config');
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/aws-credentials');
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
}

/** DescribeStacks' answer for a deployed staging stack with these outputs, as the operator tools read it. */
export function stagingStackWithOutputs(outputs: Record<string, string>) {
  return {
    Stacks: [
      {
        StackName: 'PetStoreInventory-Staging',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE' as const,
        Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
      },
    ],
  };
}
