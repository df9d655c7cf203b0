import { ApiDateTime, ApiEnum, ApiInt } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { Checkin } from './checkin.entity';
import { REDEEM_REASONS } from './redeem.rules';

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
    gate: null,
    device: null,
    device_id: null,
    type: c.type,
  };
}
