import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiInt } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { WaitingListEntry } from './waiting-list-entry.entity';

/**
 * Wire form of a waiting list entry (pretix `WaitingListSerializer`; `E/waitinglistentries/`): `created` is a UTC
 * ISO datetime; `name` is built from `name_parts` (read-only); `voucher` is the id of the voucher sent, null until
 * one was.
 */
export class WaitingListEntryJson {
  @ApiInt()
  id!: number;
  /** When the entry was made (UTC ISO datetime). */
  @ApiDateTime()
  created!: string;
  /** Read-only: built from `name_parts`. */
  @ApiProperty({ type: 'string', nullable: true })
  name!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  name_parts!: Record<string, string>;
  email!: string;
  @ApiProperty({ type: 'string', nullable: true })
  phone!: string | null;
  /** Id of the voucher sent to the entry; null until one was (read-only). */
  @ApiInt({ nullable: true })
  voucher!: number | null;
  @ApiInt()
  item!: number;
  @ApiInt({ nullable: true })
  variation!: number | null;
  locale!: string;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  @ApiInt()
  priority!: number;
}

/** Entity to the wire object, field by field (pretix's field order). */
export function toWaitingListEntryJson(entry: WaitingListEntry): WaitingListEntryJson {
  return {
    id: entry.id,
    created: isoUtc(entry.created),
    name: entry.nameCached,
    name_parts: entry.nameParts ?? {},
    email: entry.email,
    phone: entry.phone,
    voucher: entry.voucherId,
    item: entry.itemId,
    variation: entry.variationId,
    locale: entry.locale,
    subevent: entry.subeventId,
    priority: entry.priority,
  };
}
