import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/**
 * Typed configuration of every process (API, worker, CLI, migrations), read once from the environment and
 * validated at boot (architecture.md "Configuration"). Nothing else reads `process.env`.
 */
export class AppConfig {
  /** PostgreSQL connection URL; the database is created by `npm run migrate` when missing. */
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  databaseUrl = 'postgres://postgres:postgres@127.0.0.1:5432/ticketing';

  /** Redis URL for the Bull queues. */
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  redisUrl = 'redis://127.0.0.1:6379';

  /** HTTP port of the API process. */
  @IsInt()
  @Min(0)
  @Max(65535)
  port = 3000;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** SMTP URL for outgoing mail; empty means mails stay in the database outbox and are logged. */
  @IsOptional()
  @IsString()
  mailUrl = '';

  /**
   * Longest wait for a row lock (milliseconds) before a statement gives up; the request then answers 409 with
   * `Retry-After` instead of hanging (architecture.md "Concurrency").
   */
  @IsInt()
  @Min(100)
  lockTimeoutMs = 10000;

  /**
   * Failed authentications (a presented credential that is unknown or inactive) one client address may make per
   * window; past it, further failures answer 429 with `Retry-After` (issue 7 "Abuse"). Successful requests are
   * never throttled and do not count.
   */
  @IsInt()
  @Min(1)
  authFailureLimit = 30;

  /** Length of the failed-authentication window, in seconds (see {@link authFailureLimit}). */
  @IsInt()
  @Min(1)
  authFailureWindowS = 60;

  /** Prefix of Bull queue keys in Redis (tests give each file its own). */
  @IsString()
  queuePrefix = 'bull';
}

const ENV_KEYS: Record<keyof AppConfig, string> = {
  databaseUrl: 'DATABASE_URL',
  redisUrl: 'REDIS_URL',
  port: 'PORT',
  logLevel: 'LOG_LEVEL',
  mailUrl: 'MAIL_URL',
  lockTimeoutMs: 'LOCK_TIMEOUT_MS',
  queuePrefix: 'QUEUE_PREFIX',
  authFailureLimit: 'AUTH_FAILURE_LIMIT',
  authFailureWindowS: 'AUTH_FAILURE_WINDOW_S',
};

/** Variables parsed as numbers (validation then checks they are integers in range). */
const NUMERIC_KEYS: ReadonlySet<string> = new Set([
  'port',
  'lockTimeoutMs',
  'authFailureLimit',
  'authFailureWindowS',
]);

/**
 * Builds the configuration from an environment map (defaults where a variable is unset or empty).
 * @throws Error listing every invalid variable, so a misconfigured process refuses to start.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = NUMERIC_KEYS.has(key) ? Number(value) : value;
  }
  const config = plainToInstance(AppConfig, { ...raw, ...overrides });
  const errors = validateSync(config);
  if (errors.length > 0) {
    const lines = errors.map(
      (e) => `${ENV_KEYS[e.property as keyof AppConfig]}: ${Object.values(e.constraints ?? {}).join(', ')}`,
    );
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return config;
}
