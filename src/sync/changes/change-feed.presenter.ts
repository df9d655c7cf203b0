import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiEnum, ApiInt } from '../../common/http/api-schemas';
import { CHANGE_RESOURCE_NAMES } from '../change-resources';

/** One change of the feed (`GET O/changes/`, issue 27 §1). */
export class ChangeJson {
  /**
   * The change's id (`chg_<audit log entry id>`): the same value the webhook deliveries of this change carry in
   * their `webhook-id` header, so a receiver of both de-duplicates them against each other. A change that also
   * alters another resource's answer is restated for it with id `chg_<n>.<resource>` (a check-in restates its
   * order, whose positions show their check-ins).
   */
  @ApiProperty({ example: 'chg_81234', pattern: '^chg_\\d+(\\.[a-z]+)?$' })
  id!: string;
  /** Position in the organizer's feed: strictly increasing in feed order (not dense for one organizer). */
  @ApiInt({ int64: true })
  sequence!: number;
  /** The audit action, e.g. `pretix.event.order.placed`. */
  @ApiProperty({ example: 'pretix.event.order.placed' })
  action!: string;
  /** The resource changed. Order positions have none of their own: they change as part of their `order`. */
  @ApiEnum(CHANGE_RESOURCE_NAMES)
  resource!: string;
  /** Slug of the event of an event-scoped resource; null for organizer-scoped ones (and deleted events). */
  @ApiProperty({ type: String, nullable: true, example: 'democon' })
  event!: string | null;
  /**
   * The object's identifier, as in its detail route: `{"code": "ABC12"}` (orders), `{"slug": ...}` (events,
   * the organizer), `{"identifier": ...}`, `{"device_id": ...}`, else `{"id": 5}`.
   */
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    example: { code: 'ABC12' },
  })
  key!: Record<string, string | number>;
  /** When the change happened (its transaction's start, UTC). */
  @ApiDateTime()
  occurred_at!: string;
  /**
   * The object as its detail GET (without query parameters) answers it when the page is read, or null when it no
   * longer exists (then `deleted` is true) or is not rendered by the feed (devices, gates, webhooks, e-mail rules,
   * customers, sales channels: GET their detail route).
   */
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  data!: Record<string, unknown> | null;
  /** True when the object no longer exists (this change deleted it, or a later one did). */
  deleted!: boolean;
}

/** One page of the change feed. */
export class ChangePageJson {
  /**
   * The cursor to send as `?cursor=` next time: after the last change of this page, or (when the page is not
   * full) after everything visible now. Always present; store it and poll with it.
   */
  @ApiProperty({ example: 'YzE6ODEyMzQ' })
  next!: string;
  @ApiProperty({ type: [ChangeJson] })
  results!: ChangeJson[];
}
