import { IsBool, IsIntList, IsStrList, Optional, Required } from '../common/validation/fields';

/** Body of `PATCH E/seats/{id}/`: only `blocked` is writable (compat §3.18). */
export class UpdateSeatDto {
  @Required()
  @IsBool()
  blocked!: boolean;
}

/** Body of `E/seats/bulk_block/` and `bulk_unblock/`: exactly one of `ids` or `seat_guids` (compat §3.18). */
export class BulkSeatsDto {
  @Optional()
  @IsIntList()
  ids?: number[];

  @Optional()
  @IsStrList()
  seat_guids?: string[];
}
