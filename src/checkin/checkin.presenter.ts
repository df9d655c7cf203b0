import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiEnum, ApiInt } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { Checkin } from './checkin.entity';
import { REDEEM_REASONS } from './redeem.rules';

/** The entry an offline double entry lost to (`conflict` of a scan). */
export class CheckinConflictJson {
  /** pretix device number of the entry's device, null when not made by a device. */
  @ApiInt({ nullable: true })
  device_id!: number | null;
  @ApiInt({ nullable: true })
  gate!: number | null;
  /** The entry's time (ISO 8601 UTC). */
  @ApiDateTime()
  datetime!: string;
  @ApiInt()
  checkin_id!: number;
}

/** A stored scan in the history `E/checkins/` (compat §3.22). Datetimes ISO 8601 UTC. */
export class CheckinRecordJson {
  @ApiInt()
  id!: number;
  successful!: boolean;
  @ApiEnum(REDEEM_REASONS, { nullable: true })
  error_reason!: string | null;
  error_explanation!: string | null;
  @ApiInt({ nullable: true })
  position!: number | null;
  @ApiDateTime()
  datetime!: string;
  @ApiDateTime()
  created!: string;
  @ApiInt({ nullable: true })
  list!: number | null;
  auto_checked_in!: boolean;
  @ApiInt({ nullable: true })
  gate!: number | null;
  @ApiInt({ nullable: true })
  device!: number | null;
  @ApiInt({ nullable: true })
  device_id!: number | null;
  @ApiEnum(['entry', 'exit'])
  type!: string;
  /**
   * Offline double entry (README "Check-in"): on a scan stored as failed `already_redeemed` because the same ticket
   * had an earlier-dated entry on the list, that entry: device number, gate, time and id; else null.
   */
  @ApiProperty({ type: CheckinConflictJson, nullable: true })
  conflict!: CheckinConflictJson | null;
}

/** Entity to wire object. */
export function toCheckinRecordJson(c: Checkin): CheckinRecordJson {
  return {
    id: c.id,
    successful: c.successful,
    error_reason: c.errorReason,
    error_explanation: c.errorExplanation,
    position: c.positionId,
    datetime: isoUtc(c.datetime),
    created: isoUtc(c.created),
    list: c.listId,
    auto_checked_in: c.autoCheckedIn,
    gate: c.gateId,
    device: null,
    device_id: c.deviceId,
    type: c.type,
    conflict: c.conflict,
  };
}
