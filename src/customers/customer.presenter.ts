import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { Customer } from './customer.entity';

/** Wire form of a customer (pretix `CustomerSerializer`). Datetimes are UTC ISO strings. */
export class CustomerJson {
  /** Generated, read-only; the URL key. */
  identifier!: string;
  external_identifier!: string | null;
  email!: string | null;
  phone!: string | null;
  /** Full name built from `name_parts` ("" when there are none). */
  name!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  name_parts!: Record<string, string>;
  is_active!: boolean;
  is_verified!: boolean;
  @ApiDateTime({ nullable: true })
  last_login!: string | null;
  @ApiDateTime()
  date_joined!: string;
  locale!: string;
  @ApiDateTime()
  last_modified!: string;
  notes!: string | null;
}

/** Entity to wire object, field by field. */
export function toCustomerJson(c: Customer): CustomerJson {
  return {
    identifier: c.identifier,
    external_identifier: c.externalIdentifier,
    email: c.email,
    phone: c.phone,
    name: c.nameCached,
    name_parts: c.nameParts,
    is_active: c.isActive,
    is_verified: c.isVerified,
    last_login: isoUtc(c.lastLogin),
    date_joined: isoUtc(c.dateJoined),
    locale: c.locale,
    last_modified: isoUtc(c.lastModified),
    notes: c.notes,
  };
}
