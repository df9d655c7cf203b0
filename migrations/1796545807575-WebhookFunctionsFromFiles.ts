/**
 * The webhook outbox's database functions (`webhook_payload`, `webhook_outbox`) now come from the SQL files in
 * `src/webhooks/sql/`, where their rules are written down (pretix-compat.md §5). Same definitions as
 * 1795837117276-Webhooks (only the layout of the text differs); the trigger on `log_entry` stays as it is.
 * A later change to the rules is an edit of the file plus a migration like this one naming the new digest.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';
import { WebhookFunctionDigests, webhookFunctionStatements } from '../src/webhooks/webhook-functions';

export class WebhookFunctionsFromFiles1796545807575 implements MigrationInterface {
  name = 'WebhookFunctionsFromFiles1796545807575';

  /** The files applied, with the digest of the text this migration was written for. */
  readonly webhookFunctions: WebhookFunctionDigests = {
    'webhook-payload': '6ede367dfcb7628d753fa7069e8d9a9fa21bd256209e1fcc665929f1196ec9a3',
    'webhook-outbox': 'de685f6cd7b2606fac74b0fe717e24180feb141d90a2723713db9270a83048c0',
  };

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of webhookFunctionStatements(this.webhookFunctions)) await queryRunner.query(sql);
  }

  public async down(): Promise<void> {
    // The definitions 1795837117276-Webhooks created have the same rules; nothing to undo.
  }
}
