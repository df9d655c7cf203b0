import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Required, rule } from '../common/validation/fields';
import { RpcRedeemDto } from './redeem.dto';

/** Most scans one batch may carry (README "Batch redeem"). */
export const MAX_BATCH_SCANS = 1000;

/** `scans`: a list of 1..{@link MAX_BATCH_SCANS} objects (each validated later, on its own, as {@link RpcRedeemDto}). */
function IsScanList(): PropertyDecorator {
  return applyDecorators(
    rule('scanList', (v) => {
      if (v === undefined || v === null) return null;
      if (!Array.isArray(v))
        return `Expected a list of items but got type "${v === null ? 'null' : typeof v}".`;
      if (v.length === 0) return 'This list may not be empty.';
      if (v.length > MAX_BATCH_SCANS)
        return `Ensure this field has no more than ${MAX_BATCH_SCANS} elements.`;
      return null;
    }),
    ApiProperty({
      type: RpcRedeemDto,
      isArray: true,
      minItems: 1,
      maxItems: MAX_BATCH_SCANS,
      description:
        'The scans, each exactly the body of `checkinrpc/redeem/`. A scan that is not valid does not fail the ' +
        'batch: its result is that scan\'s 400 (`{"status_code": 400, "<field>": ["message"]}`).',
    }),
  );
}

/** Body of `POST O/checkinrpc/redeem_batch/` (README "Batch redeem"). */
export class RedeemBatchDto {
  @Required()
  @IsScanList()
  scans!: unknown[];
}
