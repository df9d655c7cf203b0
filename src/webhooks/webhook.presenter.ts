import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiInt } from '../common/http/api-schemas';
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';
import type { Webhook } from './webhook.entity';
import { maskSecret } from './webhook-secret';

/** Wire form of a webhook (compat §3.27, plus `secret`). */
export class WebhookJson {
  @ApiInt()
  id!: number;
  enabled!: boolean;
  target_url!: string;
  all_events!: boolean;
  /** Event slugs, ascending. */
  limit_events!: string[];
  action_types!: string[];
  @ApiProperty({ type: String, nullable: true })
  comment!: string | null;
  /**
   * Signing secret (`whsec_…`): in full only in the answer of the create and of `rotate_secret`, masked
   * (`whsec_********abcd`) elsewhere.
   */
  @ApiProperty({ readOnly: true, example: 'whsec_********Vw2x' })
  secret!: string;
}

/** Presents a webhook; `slugs` maps event ids to slugs (loaded in bulk by the caller). */
export function toWebhookJson(w: Webhook, slugs: Map<number, string>, fullSecret = false): WebhookJson {
  return {
    id: w.id,
    enabled: w.enabled,
    target_url: w.targetUrl,
    all_events: w.allEvents,
    limit_events: w.limitEventIds.flatMap((id) => (slugs.has(id) ? [slugs.get(id)!] : [])).sort(),
    action_types: [...w.actionTypes].sort(),
    comment: w.comment,
    secret: fullSecret ? w.secret : maskSecret(w.secret),
  };
}

/** One delivery attempt on the wire. */
export class DeliveryAttemptJson {
  @ApiDateTime()
  datetime!: string;
  /** HTTP status of the answer; null when there was none (timeout, connection error, refused target). */
  @ApiInt({ nullable: true })
  response_status!: number | null;
  @ApiProperty({ type: String, nullable: true })
  error!: string | null;
  @ApiInt()
  duration_ms!: number;
}

/** Wire form of a delivery (README "Webhooks"). */
export class WebhookDeliveryJson {
  /** The delivery's own id (a UUID; its requests carry the change id `chg_<notification_id>` as `webhook-id`). */
  @ApiProperty({ format: 'uuid' })
  id!: string;
  action!: string;
  /** The request body sent (compat §5). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  payload!: Record<string, unknown>;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] })
  status!: DeliveryStatus;
  @ApiProperty({ type: [DeliveryAttemptJson] })
  attempts!: DeliveryAttempt[];
  /** When the next attempt is due (pending deliveries only). */
  @ApiDateTime({ nullable: true })
  next_attempt!: string | null;
  @ApiDateTime()
  created!: string;
}

/** Presents a delivery. */
export function toDeliveryJson(d: WebhookDelivery): WebhookDeliveryJson {
  return {
    id: d.uid,
    action: d.action,
    payload: d.payload,
    status: d.status,
    attempts: d.attempts,
    next_attempt: d.status === 'pending' && d.nextAttempt ? d.nextAttempt.toISOString() : null,
    created: d.created.toISOString(),
  };
}
