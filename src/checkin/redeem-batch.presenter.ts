import { ApiProperty } from '@nestjs/swagger';
import { ApiInt } from '../common/http/api-schemas';
import { RedeemErrorJson, RedeemIncompleteJson, RedeemOkJson } from './redeem.presenter';

/**
 * One result of a batch redeem (README "Batch redeem"): `status_code` is the HTTP status the single
 * `checkinrpc/redeem/` would answer for the scan; the other fields are that answer's body, unchanged.
 */
export class RedeemBatchOkJson extends RedeemOkJson {
  @ApiProperty({ type: 'integer', enum: [201] })
  status_code!: 201;
}

/** A refused scan (`status_code` 400) or an unknown ticket (404, reason `invalid`, no `position`). */
export class RedeemBatchErrorJson extends RedeemErrorJson {
  @ApiProperty({ type: 'integer', enum: [400, 404] })
  status_code!: 400 | 404;
}

/** Check-in questions still to answer (`status_code` 400, `status` `incomplete`). */
export class RedeemBatchIncompleteJson extends RedeemIncompleteJson {
  @ApiProperty({ type: 'integer', enum: [400] })
  status_code!: 400;
}

/**
 * A scan the single redeem would answer with an error of another shape: 400 invalid scan (its field errors beside
 * `status_code`, e.g. `{"status_code": 400, "secret": ["This field is required."]}`, or `non_field_errors` for a
 * scan that is not an object / bad `lists`), 403 lists out of reach (`detail`).
 */
export class RedeemBatchFailureJson {
  @ApiInt()
  status_code!: number;
  /** Message of a 403 or 404. */
  @ApiProperty({ required: false, type: 'string' })
  detail?: string;
  /** Field errors of a 400, `{"<field>": ["message"]}`. */
  @ApiProperty({ required: false, type: 'array', items: { type: 'string' } })
  non_field_errors?: string[];
}

/** One result: the flat union of the shapes above (`status` present: a redeem answer; absent: a failure). */
export type RedeemBatchResult =
  RedeemBatchOkJson | RedeemBatchErrorJson | RedeemBatchIncompleteJson | RedeemBatchFailureJson;

/** 200 answer of `O/checkinrpc/redeem_batch/`: one result per scan, in the order of `scans`. */
export class RedeemBatchJson {
  @ApiProperty({
    type: 'array',
    items: {
      // anyOf: a 400 of an invalid scan and a refusal share `status_code`; `status` tells the redeem answers apart.
      anyOf: [
        { $ref: '#/components/schemas/RedeemBatchOkJson' },
        { $ref: '#/components/schemas/RedeemBatchErrorJson' },
        { $ref: '#/components/schemas/RedeemBatchIncompleteJson' },
        { $ref: '#/components/schemas/RedeemBatchFailureJson' },
      ],
    },
    description: 'One result per scan, in the order of `scans`.',
  })
  results!: RedeemBatchResult[];
}
