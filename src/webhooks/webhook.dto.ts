import { PartialType } from '@nestjs/swagger';
import { IsBool, IsStr, IsStrList, Nullable, Optional, Required } from '../common/validation/fields';

/**
 * Body of `POST O/webhooks/` and `PUT O/webhooks/{id}/` (compat §3.27). `secret` and `id` are read-only and
 * ignored when sent. Registered action types and `limit_events` slugs are checked by the service (pretix's
 * messages).
 */
export class CreateWebhookDto {
  /** Default true. */
  @Optional()
  @IsBool()
  enabled?: boolean;

  /** `http` or `https` URL receiving the POSTs; Basic-auth credentials may be part of it. */
  @Required()
  @IsStr({ max: 500, blank: false })
  target_url!: string;

  /** All events of the organizer, including future ones (default true unless `limit_events` is sent). */
  @Optional()
  @IsBool()
  all_events?: boolean;

  /** Slugs of events of this organizer; must be empty when `all_events` is true. */
  @Optional()
  @IsStrList()
  limit_events?: string[];

  /** Registered action types (compat §5); wildcards such as `pretix.event.order.changed.*` allowed. */
  @Required()
  @IsStrList()
  action_types!: string[];

  @Nullable()
  @IsStr({ max: 10000 })
  comment?: string | null;
}

/** Body of `PATCH O/webhooks/{id}/`: every field optional. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto, { skipNullProperties: false }) {}
