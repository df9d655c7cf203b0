/**
 * Webhook payloads of waiting list entries carry `waitinglistentry` (pretix-compat.md §5: `{…, "waitinglistentry":
 * <id>}` for `pretix.event.orders.waitinglist.*`): `webhook_payload` re-applied from `src/webhooks/sql/`.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';
import { WebhookFunctionDigests, webhookFunctionStatements } from '../src/webhooks/webhook-functions';

export class WaitingListWebhookPayload1796597476317 implements MigrationInterface {
  name = 'WaitingListWebhookPayload1796597476317';

  /** The files applied, with the digest of the text this migration was written for. */
  readonly webhookFunctions: WebhookFunctionDigests = {
    'webhook-payload': '0ce8fc6437b7b6e250281553923a67d746d56593b7e27710cabb47098da02fb8',
  };

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of webhookFunctionStatements(this.webhookFunctions)) await queryRunner.query(sql);
  }

  public async down(): Promise<void> {
    // The previous definition differs only by the waiting list rule, whose actions had no payload of their own.
  }
}
