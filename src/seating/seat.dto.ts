import { IsBool, IsIntList, IsStrList, Optional, Required } from '../common/validation/fields';
import { LIMITS } from '../config/limits';

/** pretix's message above the bulk limit (compat §3.18). */
export const TOO_MANY_SEATS = `Please do not pass over ${LIMITS.seatsPerBulk} seats.`;

/** Body of `PATCH E/seats/{id}/`: only `blocked` is writable (compat §3.18). */
export class UpdateSeatDto {
  @Required()
  @IsBool()
  blocked!: boolean;
}

/** Body of `E/seats/bulk_block/` and `bulk_unblock/`: exactly one of `ids` or `seat_guids` (compat §3.18). */
export class BulkSeatsDto {
  @Optional()
  @IsIntList({ max: LIMITS.seatsPerBulk, tooMany: TOO_MANY_SEATS })
  ids?: number[];

  @Optional()
  @IsStrList(undefined, {}, { max: LIMITS.seatsPerBulk, tooMany: TOO_MANY_SEATS })
  seat_guids?: string[];
}
