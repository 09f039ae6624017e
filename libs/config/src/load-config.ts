import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates environment variables once, at start-up; lists every problem at once. */
export function loadConfig<TSchema extends z.ZodType>(schema: TSchema, env: NodeJS.ProcessEnv = process.env): z.infer<TSchema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const value = env[name];
      return `${name}: ${issue.message}${value === undefined ? ' (not set)' : ` (got '${value}')`}`;
    }),
  );
}
