/**
 * The audit log API (`GET O/logs/`, `E/logs/`, `E/orders/{code}/logs/`; README "Audit log"):
 * - `log_entry.oauth_application_id`: the OAuth application through which a user acted (actor
 *   `oauth_application`), written by every insert path of `LogEntryQueries`.
 * - `log_entry.changes`: the old and new values of the columns an update changed, `{"<column>": {"old", "new"}}`.
 *   Recorded generically, so no writer can forget it: a statement-level `AFTER UPDATE` trigger on each audited
 *   table (`audit_stash_changes`, argument: the entries' content type) diffs the old and new rows of the
 *   statement (at most 50 rows; bulk updates are skipped) and stashes the changed columns in the
 *   transaction-local setting `ticketing.audit_changes`, keyed `<content type>:<id>` (the first old value and the
 *   last new value of each column are kept). A `BEFORE INSERT` trigger on `log_entry` (`log_entry_changes`)
 *   moves the stash of the entry's object into the entry. An update after its entry (writers that log first, or
 *   a data-modifying CTE whose entry is inserted in the same statement) gives its changes to the latest entry
 *   the transaction wrote about the object (found by `log_entry.xid`, ChangeFeed migration) when that entry has
 *   none yet. The stash dies with the transaction. Secret-named columns (secret, token, password, hash) and
 *   bookkeeping columns (`last_modified`, `updated`, `changed_xid`, `xid`) are never stashed.
 * - `ix_log_entry_object`: an object's entries (`E/orders/{code}/logs/`, shredding).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Audited table -> content type of its log entries. */
const AUDITED: [table: string, contentType: string][] = [
  ['item', 'item'],
  ['quota', 'quota'],
  ['voucher', 'voucher'],
  ['question', 'question'],
  ['item_category', 'itemcategory'],
  ['tax_rule', 'taxrule'],
  ['discount', 'discount'],
  ['subevent', 'subevent'],
  ['checkin_list', 'checkinlist'],
  ['event', 'event'],
  ['giftcard', 'giftcard'],
  ['customer', 'customer'],
  ['team', 'team'],
  ['orders', 'order'],
  ['webhook', 'webhook'],
  ['device', 'device'],
  ['reusable_medium', 'reusablemedium'],
  ['waiting_list_entry', 'waitinglistentry'],
  ['membership_type', 'membershiptype'],
  ['sales_channel', 'saleschannel'],
];

export class AuditLogApi1796700003100 implements MigrationInterface {
  name = 'AuditLogApi1796700003100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "log_entry" ADD "oauth_application_id" integer`);
    await queryRunner.query(`ALTER TABLE "log_entry" ADD "changes" jsonb`);
    await queryRunner.query(
      `CREATE INDEX "ix_log_entry_object" ON "log_entry" ("content_type", "object_id") `,
    );

    await queryRunner.query(`CREATE FUNCTION "audit_stash_changes"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  found jsonb;
  stash jsonb;
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 51) n) > 50 THEN RETURN NULL; END IF;
  SELECT jsonb_object_agg(TG_ARGV[0] || ':' || d.id, d.diff) INTO found
    FROM (SELECT n.id,
                 (SELECT jsonb_object_agg(k.key, jsonb_build_object('old', oj -> k.key, 'new', k.value))
                    FROM jsonb_each(nj) k
                   WHERE k.value IS DISTINCT FROM oj -> k.key
                     AND k.key !~* 'secret|token|password|passwd|api_?key|hash|salt'
                     AND k.key NOT IN ('last_modified', 'updated', 'updated_at', 'changed_xid', 'xid')) AS diff
            FROM (SELECT r.id, to_jsonb(r) AS nj FROM new_rows r) n
            JOIN (SELECT r.id, to_jsonb(r) AS oj FROM old_rows r) o ON o.id = n.id) d
   WHERE d.diff IS NOT NULL;
  IF found IS NULL THEN RETURN NULL; END IF;
  -- The latest entry this transaction already wrote about an object takes its changes when it has none yet
  -- (writers that log before they update: order expiry, the order status actions; entries written in the same
  -- statement as the update). The other objects' changes are stashed for the next entry.
  WITH latest AS (
    SELECT DISTINCT ON (f.key) l.id, f.key, f.value
      FROM jsonb_each(found) f
      JOIN log_entry l ON l.xid = pg_current_xact_id()::text::bigint
                      AND l.content_type = split_part(f.key, ':', 1)
                      AND l.object_id = split_part(f.key, ':', 2)::int
     ORDER BY f.key, l.id DESC
  ), attached AS (
    UPDATE log_entry le SET changes = latest.value
      FROM latest
     WHERE le.id = latest.id AND le.changes IS NULL
    RETURNING latest.key
  )
  SELECT found - coalesce((SELECT array_agg(a.key) FROM attached a), '{}'::text[]) INTO found;
  IF found = '{}'::jsonb THEN RETURN NULL; END IF;
  stash := coalesce(nullif(current_setting('ticketing.audit_changes', true), '')::jsonb, '{}'::jsonb);
  -- Merge per object: columns changed again keep their first old value and take the last new one.
  SELECT stash || jsonb_object_agg(f.key, coalesce(stash -> f.key, '{}'::jsonb) || (
           SELECT jsonb_object_agg(c.key, jsonb_build_object(
                    'old', CASE WHEN (stash -> f.key) ? c.key THEN stash -> f.key -> c.key -> 'old'
                                ELSE c.value -> 'old' END,
                    'new', c.value -> 'new'))
             FROM jsonb_each(f.value) c))
    INTO stash
    FROM jsonb_each(found) f;
  PERFORM set_config('ticketing.audit_changes', stash::text, true);
  RETURN NULL;
END
$fn$`);
    for (const [table, contentType] of AUDITED) {
      await queryRunner.query(
        `CREATE TRIGGER "audit_stash_changes" AFTER UPDATE ON "${table}"
           REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
           FOR EACH STATEMENT EXECUTE FUNCTION "audit_stash_changes"('${contentType}')`,
      );
    }

    await queryRunner.query(`CREATE FUNCTION "log_entry_take_changes"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  stash jsonb := nullif(current_setting('ticketing.audit_changes', true), '')::jsonb;
  k text := NEW.content_type || ':' || NEW.object_id;
BEGIN
  IF stash IS NULL OR NEW.object_id IS NULL OR NOT stash ? k THEN RETURN NEW; END IF;
  NEW.changes := stash -> k;
  stash := stash - k;
  PERFORM set_config('ticketing.audit_changes', CASE WHEN stash = '{}'::jsonb THEN '' ELSE stash::text END, true);
  RETURN NEW;
END
$fn$`);
    // The condition keeps the function call off every insert outside a transaction that stashed something.
    await queryRunner.query(
      `CREATE TRIGGER "log_entry_changes" BEFORE INSERT ON "log_entry" FOR EACH ROW
         WHEN (current_setting('ticketing.audit_changes', true) <> '')
         EXECUTE FUNCTION "log_entry_take_changes"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "log_entry_changes" ON "log_entry"`);
    await queryRunner.query(`DROP FUNCTION "log_entry_take_changes"()`);
    for (const [table] of AUDITED) {
      await queryRunner.query(`DROP TRIGGER "audit_stash_changes" ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION "audit_stash_changes"()`);
    await queryRunner.query(`DROP INDEX "public"."ix_log_entry_object"`);
    await queryRunner.query(`ALTER TABLE "log_entry" DROP COLUMN "changes"`);
    await queryRunner.query(`ALTER TABLE "log_entry" DROP COLUMN "oauth_application_id"`);
  }
}
