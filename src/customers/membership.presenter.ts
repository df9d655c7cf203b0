import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiInt } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { Membership } from './membership.entity';

/** Wire form of a membership (pretix `MembershipSerializer`; `canceled` is not part of it). */
export class MembershipJson {
  @ApiInt()
  id!: number;
  testmode!: boolean;
  /** Identifier of the customer. */
  customer!: string;
  /** Id of the membership type. */
  @ApiInt()
  membership_type!: number;
  @ApiDateTime()
  date_start!: string;
  @ApiDateTime()
  date_end!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, nullable: true })
  attendee_name_parts!: Record<string, string> | null;
}

/** Entity (with the customer's identifier) to wire object, field by field. */
export function toMembershipJson(m: Membership, customerIdentifier: string): MembershipJson {
  return {
    id: m.id,
    testmode: m.testmode,
    customer: customerIdentifier,
    membership_type: m.membershipTypeId,
    date_start: isoUtc(m.dateStart),
    date_end: isoUtc(m.dateEnd),
    attendee_name_parts: m.attendeeNameParts,
  };
}
