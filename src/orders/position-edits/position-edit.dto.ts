import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ATTENDEE_FIELDS, OrderPositionInputDto } from '../create/order.dto';

/**
 * Body of `PATCH E/orderpositions/{id}/` (pretix "Order position endpoints", "Manipulating individual
 * positions"): the attendee fields, `answers` (all answers of the position: the list replaces them) and the
 * validity. Fields not named here are ignored, except those of {@link REFUSED_POSITION_FIELDS}, which are refused.
 */
export class UpdateOrderPositionDto extends PickType(OrderPositionInputDto, [
  ...ATTENDEE_FIELDS,
  'answers',
  'valid_from',
  'valid_until',
] as const) {
  /** Refused here (400): product changes go through `POST E/orders/{code}/change/`. */
  @ApiPropertyOptional({ type: 'integer', description: 'Refused (400); use the order change endpoint.' })
  @Allow()
  item?: unknown;

  /** Refused here (400). */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'Refused (400); use the order change endpoint.',
  })
  @Allow()
  variation?: unknown;

  /** Refused here (400). */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'Refused (400); use the order change endpoint.',
  })
  @Allow()
  subevent?: unknown;

  /** Refused here (400). */
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'Refused (400); use the order change endpoint.',
  })
  @Allow()
  seat?: unknown;

  /** Refused here (400). */
  @ApiPropertyOptional({ type: 'string', description: 'Refused (400); use the order change endpoint.' })
  @Allow()
  price?: unknown;

  /** Refused here (400). */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'Refused (400); use the order change endpoint.',
  })
  @Allow()
  tax_rule?: unknown;

  /** Refused here (400): use `POST E/orderpositions/{id}/regenerate_secrets/`. */
  @ApiPropertyOptional({
    type: 'string',
    description: 'Refused (400); use regenerate_secrets or the order change endpoint.',
  })
  @Allow()
  secret?: unknown;
}

/** Fields pretix changes through its order change manager; this endpoint refuses them (400 naming the field). */
export const REFUSED_POSITION_FIELDS = [
  'item',
  'variation',
  'subevent',
  'seat',
  'price',
  'tax_rule',
  'secret',
] as const;
