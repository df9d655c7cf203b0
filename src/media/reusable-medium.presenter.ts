import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { isoUtc } from '../common/values/datetime';
import { GiftCardJson } from '../giftcards/giftcard.presenter';
import { CustomerJson } from '../customers/customer.presenter';
import { NestedOrderPositionJson } from '../orders/presentation/nested-order-position.presenter';
import { MEDIUM_TYPES, type MediumType, type ReusableMedium } from './reusable-medium.entity';
import { ApiDateTime, ApiInt } from '../common/http/api-schemas';

/** Wire form of a reusable medium (spec "Reusable medium"; compat §3.3). */
export class ReusableMediumJson {
  @ApiInt()
  id!: number;
  @ApiProperty({ enum: MEDIUM_TYPES })
  type!: MediumType;
  /** Slug of the owning organizer. */
  organizer!: string;
  identifier!: string;
  active!: boolean;
  /** ISO 8601 UTC. */
  @ApiDateTime()
  created!: string;
  /** ISO 8601 UTC. */
  @ApiDateTime()
  updated!: string;
  @ApiDateTime({ nullable: true })
  expires!: string | null;
  /** Identifier of the customer account the medium belongs to, or the customer with `expand=customer`. */
  @ApiProperty({ oneOf: [{ type: 'string' }, { $ref: getSchemaPath(CustomerJson) }], nullable: true })
  customer!: string | CustomerJson | null;
  /** The linked order position: its id, or the nested position with `expand=linked_orderposition`. */
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { $ref: getSchemaPath(NestedOrderPositionJson) }],
    nullable: true,
  })
  linked_orderposition!: number | NestedOrderPositionJson | null;
  /** The linked gift card: its id, or the gift card with `expand=linked_giftcard`. */
  @ApiProperty({ oneOf: [{ type: 'integer' }, { $ref: getSchemaPath(GiftCardJson) }], nullable: true })
  linked_giftcard!: number | GiftCardJson | null;
  @ApiProperty({ type: 'object', additionalProperties: true })
  info!: Record<string, unknown>;
  notes!: string | null;
}

/** Answer of `POST O/reusablemedia/lookup/`: the medium found, or null (compat §3.3). */
export class ReusableMediumLookupJson {
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(ReusableMediumJson) }], nullable: true })
  result!: ReusableMediumJson | null;
}

/** Expanded relations of one medium; an absent key keeps the id. */
export interface MediumExpansions {
  linkedOrderposition?: NestedOrderPositionJson | null;
  linkedGiftcard?: GiftCardJson | null;
  customer?: CustomerJson | null;
}

/** Entity to wire object; the caller resolves the organizer slug and the expansions asked for. */
export function toReusableMediumJson(
  m: ReusableMedium,
  organizer: string,
  expanded: MediumExpansions = {},
): ReusableMediumJson {
  return {
    id: m.id,
    type: m.type,
    organizer,
    identifier: m.identifier,
    active: m.active,
    created: isoUtc(m.created),
    updated: isoUtc(m.updated),
    expires: isoUtc(m.expires),
    customer: expanded.customer !== undefined ? expanded.customer : m.customer,
    linked_orderposition:
      expanded.linkedOrderposition !== undefined ? expanded.linkedOrderposition : m.linkedOrderpositionId,
    linked_giftcard: expanded.linkedGiftcard !== undefined ? expanded.linkedGiftcard : m.linkedGiftcardId,
    info: m.info,
    notes: m.notes,
  };
}
