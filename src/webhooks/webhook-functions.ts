import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

/**
 * The database functions of the webhook outbox (pretix-compat.md §5 "Webhooks (outgoing notifications)"), each
 * kept as one `CREATE OR REPLACE FUNCTION` statement in `src/webhooks/sql/<name>.sql` with its rules stated in
 * the file's header: `webhook-payload` (the payload per action family) and `webhook-outbox` (the trigger function
 * on `log_entry` that fans entries out into `webhook_delivery`). Listed in the order they are applied (the outbox
 * calls the payload function).
 */
export const WEBHOOK_FUNCTION_FILES = ['webhook-payload', 'webhook-outbox'] as const;

/** The name of one file of {@link WEBHOOK_FUNCTION_FILES}. */
export type WebhookFunctionFile = (typeof WEBHOOK_FUNCTION_FILES)[number];

/**
 * What a migration applying webhook function files declares: for each file it applies, the digest
 * ({@link webhookFunctionDigest}) of the text it was written for. test/webhook-functions.e2e-spec.ts checks that
 * the newest migration naming a file has the file's current digest, so a changed file without a migration
 * re-applying it fails.
 */
export type WebhookFunctionDigests = Partial<Record<WebhookFunctionFile, string>>;

/** Folder of the SQL files: `src/webhooks/sql/` under ts-node/jest, `dist/src/webhooks/sql/` (nest-cli.json assets). */
export const WEBHOOK_SQL_DIR = join(__dirname, 'sql');

/**
 * The text of `src/webhooks/sql/<file>.sql`: one `CREATE OR REPLACE FUNCTION` statement (comment header
 * included), read at run time.
 * @throws Error (ENOENT) when the file is missing, e.g. a build that did not copy the assets
 */
export function webhookFunctionSql(file: WebhookFunctionFile): string {
  return readFileSync(join(WEBHOOK_SQL_DIR, `${file}.sql`), 'utf8');
}

/**
 * The sha256 (hex) of a file's statement, from `CREATE` to the end, line endings as `\n`: the comment header may
 * change without a migration, the definition may not.
 */
export function webhookFunctionDigest(file: WebhookFunctionFile): string {
  const text = webhookFunctionSql(file).replace(/\r\n/g, '\n');
  const start = text.indexOf('CREATE OR REPLACE FUNCTION');
  return createHash('sha256')
    .update(start < 0 ? text : text.slice(start))
    .digest('hex');
}

/**
 * The statements a migration runs for the files it declares, in {@link WEBHOOK_FUNCTION_FILES} order: a change to
 * the rules is an edit of the file plus a new migration with `webhookFunctions = { '<file>': '<new digest>' }`
 * whose `up` runs these. Every such migration applies the file's current text (on a fresh database the earlier
 * ones do too, then the newest again): fine for PL/pgSQL bodies, which are not checked against the schema when
 * created; a change of a function's arguments needs a `DROP FUNCTION` of the old signature in its migration
 * (CREATE OR REPLACE would add an overload).
 */
export function webhookFunctionStatements(declared: WebhookFunctionDigests): string[] {
  return WEBHOOK_FUNCTION_FILES.filter((file) => declared[file] !== undefined).map(webhookFunctionSql);
}
