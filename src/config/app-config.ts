import { plainToInstance } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  ValidationError,
} from 'class-validator';
import { IsTrustProxy } from './trust-proxy';

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

  /** `json` (one JSON object per line, for log collectors) or `pretty` (coloured, for development). */
  @IsIn(['json', 'pretty'])
  logFormat: 'json' | 'pretty' = 'json';

  /**
   * SMTP URL for outgoing mail (`smtp://user:pass@host:587`, `smtps://user:pass@host:465`); empty means mails
   * stay `queued` in the database outbox and are logged.
   */
  @IsOptional()
  @Matches(/^(smtps?:\/\/[^\s]+)?$/, { message: 'MAIL_URL must be an smtp:// or smtps:// URL' })
  mailUrl = '';

  /**
   * Longest wait for a row lock (milliseconds) before a statement gives up; the request then answers 409 with
   * `Retry-After` instead of hanging (architecture.md "Concurrency").
   */
  @IsInt()
  @Min(100)
  lockTimeoutMs = 10000;

  /** Connections of each process's PostgreSQL pool. */
  @IsInt()
  @Min(1)
  @Max(1000)
  databasePoolSize = 20;

  /**
   * Longest wait for a free pool connection (milliseconds); past it the request answers 503 with `Retry-After`
   * before it has written anything.
   */
  @IsInt()
  @Min(100)
  databasePoolTimeoutMs = 5000;

  /**
   * Failed authentications (a presented credential that is unknown or inactive) one client address may make per
   * window; past it, further failures answer 429 with `Retry-After` (README "Security"). Successful requests are
   * never throttled and do not count.
   */
  @IsInt()
  @Min(1)
  authFailureLimit = 30;

  /** Length of the failed-authentication window, in seconds (see {@link authFailureLimit}). */
  @IsInt()
  @Min(1)
  authFailureWindowS = 60;

  /**
   * Which reverse proxies' `X-Forwarded-For` decides the client address (rate limits, logs; README "Security"):
   * `false` (default: none, the socket's peer is the client), a hop count (`1`), or a comma-separated list of
   * proxy addresses/CIDRs. Passed to express's `trust proxy` (see `trust-proxy.ts`).
   */
  @IsTrustProxy()
  trustProxy = 'false';

  /**
   * Longest wait for a row lock inside a voucher write (milliseconds, `SET LOCAL lock_timeout`): quota rows, the
   * voucher row, a code being inserted concurrently. Not had in time: 409 with `Retry-After` (spec "Errors").
   */
  @IsInt()
  @Min(1)
  voucherLockTimeoutMs = 3000;

  /** Longest wait for a row lock inside an order status action (milliseconds); as {@link voucherLockTimeoutMs}. */
  @IsInt()
  @Min(1)
  orderLockTimeoutMs = 3000;

  /** Prefix of the queue keys in Redis (tests give each file its own). */
  @IsString()
  queuePrefix = 'bull';

  /** Longest wait (milliseconds) for Redis when the API enqueues a job; past it the write answers 503. */
  @IsInt()
  @Min(100)
  queueTimeoutMs = 1500;

  /** Sender address of outgoing mail. */
  @IsString()
  mailFrom = 'ticketing@localhost';

  /** Delivery attempts of one e-mail before it is marked `failed`. */
  @IsInt()
  @Min(1)
  @Max(20)
  mailMaxAttempts = 5;

  /** Delay before the second delivery attempt (milliseconds); doubles with every further attempt. */
  @IsInt()
  @Min(10)
  mailRetryDelayMs = 60000;

  /**
   * How long a worker holds a job before another worker may take it over as stalled (milliseconds); the lock is
   * renewed while the job runs, so only a dead or frozen worker loses it.
   */
  @IsInt()
  @Min(1000)
  jobLockMs = 30000;

  /**
   * On SIGTERM, how long the API lets in-flight requests finish (seconds) after it stopped accepting connections;
   * then the remaining connections are closed, the pools too, and the process exits 0.
   */
  @IsInt()
  @Min(0)
  shutdownGraceSeconds = 20;

  /** On SIGTERM, how long the worker waits for its current jobs before it returns them to the queue (ms). */
  @IsInt()
  @Min(0)
  workerShutdownGraceMs = 25000;

  /** Interval of the scheduler's repeatable tick (milliseconds). */
  @IsInt()
  @Min(500)
  schedulerIntervalMs = 60000;

  /** How often the worker checks that the scheduler's repeatable job still exists in Redis (milliseconds). */
  @IsInt()
  @Min(200)
  schedulerWatchMs = 15000;

  /**
   * Pending orders expired per transaction by the scheduler (README "Selling without overselling"): the rows of
   * one batch stay locked until it commits.
   */
  @IsInt()
  @Min(1)
  @Max(10000)
  orderExpiryBatch = 100;

  /** Batches of {@link orderExpiryBatch} one scheduler tick expires at most; the next tick continues. */
  @IsInt()
  @Min(1)
  orderExpiryMaxBatches = 50;

  /**
   * Interval of the worker's consistency check of the maintained quota counts (architecture.md "Concurrency";
   * `check-quotas` does the same by hand), in milliseconds; it reads every order position once, so keep it rare. 0
   * turns it off.
   */
  @IsInt()
  @Min(0)
  quotaCheckIntervalMs = 6 * 60 * 60 * 1000;

  /**
   * Bytes of rendered list pages the API keeps per process (catalogue lists keyed by the event's catalogue
   * version, so a write is never served stale); 0 turns the cache off.
   */
  @IsInt()
  @Min(0)
  listCacheBytes = 16 * 1024 * 1024;

  /**
   * V8's old-generation growing factor in percent (`--heap-growing-percent`), set at start of the API and the
   * worker: lower keeps a process's resident memory near its live data under load (the API's requests, the
   * worker's exports) at some CPU cost; 0 leaves V8's default.
   */
  @IsInt()
  @Min(0)
  @Max(1000)
  heapGrowingPercent = 60;

  /**
   * Secret that signs the session cookie and the CSRF tokens of the OAuth login and consent pages. Set it (and
   * the same value on every API replica) in production; empty means a random secret per process, so logins do
   * not survive a restart.
   */
  @IsString()
  sessionSecret = '';

  /**
   * Whether webhook targets may be private, link-local or loopback addresses (checked when configured and on the
   * resolved address at every delivery). Off by default everywhere (README "Security", "Webhooks"); the test
   * harness and local development against a receiver on 127.0.0.1 set `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`
   * explicitly.
   */
  @IsBoolean()
  webhookAllowPrivateTargets = false;

  /** Delay before the first webhook retry (seconds); doubles with every further attempt, with jitter, up to 3 days. */
  @IsInt()
  @Min(1)
  webhookRetryBaseS = 60;

  /** How long a webhook receiver may take to answer (milliseconds) before the attempt counts as failed. */
  @IsInt()
  @Min(100)
  @Max(120000)
  webhookTimeoutMs = 30000;

  /**
   * Webhook deliveries one worker sends at once, so that a slow receiver does not hold up the others (each
   * waits at most `WEBHOOK_TIMEOUT_MS`).
   */
  @IsInt()
  @Min(1)
  @Max(500)
  webhookConcurrency = 32;

  /**
   * Days the change feed (`GET O/changes/`) keeps its entries; a cursor pointing before pruned entries answers 410
   * (the audit log itself is not pruned).
   */
  @IsInt()
  @Min(1)
  @Max(3650)
  changeFeedRetentionDays = 30;

  /** Registers the `diagnostic.sleep` task kind (a harmless task used by the worker tests). */
  @IsBoolean()
  diagnosticTasks = false;

  /**
   * Delay before the second attempt to render an invoice PDF (milliseconds); doubles with every further attempt
   * (4 attempts; then the next download asks again).
   */
  @IsInt()
  @Min(10)
  invoicePdfRetryDelayMs = 2000;

  /**
   * Public base URL of the ticket shop (no trailing slash), used for the `{url}` placeholder of scheduled e-mail
   * rules (`<SITE_URL>/<organizer>/<event>/order/<code>/<secret>/`) and the `public_url` of organizers
   * (`<SITE_URL>/<organizer>/`) and events (`<SITE_URL>/<organizer>/<event>/`).
   */
  @Matches(/^https?:\/\/[^\s]+[^/\s]$/, {
    message: 'SITE_URL must be an http(s) URL without a trailing slash',
  })
  siteUrl = 'http://localhost:8000';

  /**
   * Public base URL of this API (scheme and host, no trailing slash, without `/api/v1`) for the absolute links in
   * answers (ticket `downloads`); empty: the origin of each request (its `Host`, as `TRUST_PROXY` allows).
   */
  @IsOptional()
  @Matches(/^(https?:\/\/[^\s]+[^/\s])?$/, {
    message: 'API_URL must be an http(s) URL without a trailing slash',
  })
  apiUrl = '';

  /**
   * Seconds between the comment lines (`: keep-alive`) a live check-in stream sends while nothing happens, so
   * proxies and load balancers keep the connection (README "Live check-in stream").
   */
  @IsInt()
  @Min(1)
  @Max(300)
  streamHeartbeatSeconds = 15;

  /** Open live check-in streams one API process serves at most; past it a new one is answered 503. */
  @IsInt()
  @Min(1)
  streamMaxClients = 1000;

  /**
   * Entries a resumption (`Last-Event-ID`) replays at most; a client further behind gets a `reset` event (it
   * resynchronises the list's positions) and then the live entries.
   */
  @IsInt()
  @Min(1)
  @Max(100000)
  streamReplayMax = 1000;
}

const ENV_KEYS: Record<keyof AppConfig, string> = {
  databaseUrl: 'DATABASE_URL',
  redisUrl: 'REDIS_URL',
  port: 'PORT',
  logLevel: 'LOG_LEVEL',
  logFormat: 'LOG_FORMAT',
  mailUrl: 'MAIL_URL',
  lockTimeoutMs: 'LOCK_TIMEOUT_MS',
  databasePoolSize: 'DATABASE_POOL_SIZE',
  databasePoolTimeoutMs: 'DATABASE_POOL_TIMEOUT_MS',
  voucherLockTimeoutMs: 'VOUCHER_LOCK_TIMEOUT_MS',
  orderLockTimeoutMs: 'ORDER_LOCK_TIMEOUT_MS',
  queuePrefix: 'QUEUE_PREFIX',
  authFailureLimit: 'AUTH_FAILURE_LIMIT',
  authFailureWindowS: 'AUTH_FAILURE_WINDOW_S',
  trustProxy: 'TRUST_PROXY',
  queueTimeoutMs: 'QUEUE_TIMEOUT_MS',
  mailFrom: 'MAIL_FROM',
  mailMaxAttempts: 'MAIL_MAX_ATTEMPTS',
  mailRetryDelayMs: 'MAIL_RETRY_DELAY_MS',
  jobLockMs: 'JOB_LOCK_MS',
  workerShutdownGraceMs: 'WORKER_SHUTDOWN_GRACE_MS',
  shutdownGraceSeconds: 'SHUTDOWN_GRACE_SECONDS',
  schedulerIntervalMs: 'SCHEDULER_INTERVAL_MS',
  schedulerWatchMs: 'SCHEDULER_WATCH_MS',
  orderExpiryBatch: 'ORDER_EXPIRY_BATCH',
  orderExpiryMaxBatches: 'ORDER_EXPIRY_MAX_BATCHES',
  quotaCheckIntervalMs: 'QUOTA_CHECK_INTERVAL_MS',
  diagnosticTasks: 'DIAGNOSTIC_TASKS',
  invoicePdfRetryDelayMs: 'INVOICE_PDF_RETRY_DELAY_MS',
  webhookAllowPrivateTargets: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  webhookRetryBaseS: 'WEBHOOK_RETRY_BASE_S',
  webhookTimeoutMs: 'WEBHOOK_TIMEOUT_MS',
  webhookConcurrency: 'WEBHOOK_CONCURRENCY',
  changeFeedRetentionDays: 'CHANGE_FEED_RETENTION_DAYS',
  listCacheBytes: 'LIST_CACHE_BYTES',
  heapGrowingPercent: 'HEAP_GROWING_PERCENT',
  sessionSecret: 'SESSION_SECRET',
  siteUrl: 'SITE_URL',
  apiUrl: 'API_URL',
  streamHeartbeatSeconds: 'STREAM_HEARTBEAT_SECONDS',
  streamMaxClients: 'STREAM_MAX_CLIENTS',
  streamReplayMax: 'STREAM_REPLAY_MAX',
};

const DEFAULTS = new AppConfig();

/** Environment strings converted to the type of the option's default (numbers, booleans). */
function fromEnv(key: keyof AppConfig, value: string): unknown {
  const kind = typeof DEFAULTS[key];
  if (kind === 'number') return Number(value);
  if (kind === 'boolean') return ['1', 'true', 'yes'].includes(value.toLowerCase());
  return value;
}

/** A configuration value that is invalid; its message is the one line a process prints before it exits. */
export class ConfigurationError extends Error {}

/** `PORT must be an integer number, got "abc"` for one failed option (the env name, the raw value). */
function describe(error: ValidationError, env: NodeJS.ProcessEnv, overrides: Partial<AppConfig>): string {
  const key = error.property as keyof AppConfig;
  const name = ENV_KEYS[key];
  const raw = key in overrides ? String(overrides[key]) : env[name];
  const constraints = error.constraints ?? {};
  // A value of the wrong type: say only that (not also "must not be less than 0" for "abc").
  const typeCheck = ['isInt', 'isBoolean'].find((c) => c in constraints);
  const chosen = typeCheck ? [constraints[typeCheck]] : Object.values(constraints);
  const messages = chosen.map((m) => (m.startsWith(`${key} `) ? `${name}${m.slice(key.length)}` : m));
  return `${messages.join(' and ')}, got ${JSON.stringify(raw ?? String(error.value))}`;
}

/**
 * Builds the configuration from an environment map (defaults where a variable is unset or empty).
 * @throws ConfigurationError naming every invalid variable on one line
 *   (`Configuration error: PORT must be an integer number, got "abc"`), so a misconfigured process refuses to
 *   start with a message instead of a stack trace.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = fromEnv(key as keyof AppConfig, value);
  }
  const config = plainToInstance(AppConfig, { ...raw, ...overrides });
  const errors = validateSync(config);
  if (errors.length > 0) {
    throw new ConfigurationError(
      `Configuration error: ${errors.map((e) => describe(e, env, overrides)).join('; ')}`,
    );
  }
  return config;
}

/**
 * The text a process prints when it cannot start: the one line of a {@link ConfigurationError}, else the
 * `what failed to start` line with the stack.
 */
export function startupFailure(what: string, err: unknown): string {
  if (err instanceof ConfigurationError) return `${err.message}\n`;
  return `${what} failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`;
}
